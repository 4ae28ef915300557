/**
 * The harness's own credentials, removed from every hook's environment: a hook is code from a
 * settings file (often a project's), and the model provider's key is the harness's, not the hook's.
 * Other variables (a user's GITHUB_TOKEN that a `gh` hook needs) pass.
 */
const HARNESS_SECRETS = /^(?:OPENAI_API_KEY|OPENAI_ORG_ID|OPENAI_PROJECT_ID|ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN|GEMINI_API_KEY|GOOGLE_API_KEY|GOOGLE_GENERATIVE_AI_API_KEY|AZURE_OPENAI_API_KEY|DEEPSEEK_API_KEY|MISTRAL_API_KEY|GROQ_API_KEY|OPENROUTER_API_KEY|XAI_API_KEY|TOGETHER_API_KEY|FIREWORKS_API_KEY|WEIR_[A-Z0-9_]*(?:KEY|TOKEN|SECRET))$/;

/** What a hook's environment is built from. */
export interface HookEnvironmentOptions {
  readonly base: NodeJS.ProcessEnv;
  readonly projectDir: string;
  readonly pluginRoot: string | undefined;
  /** More names to remove (the program's own secrets). */
  readonly removeEnv: readonly string[];
}

/** The environment a hook runs with: the user's, minus the harness's keys, plus the project folders. */
export function hookEnvironment(options: HookEnvironmentOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(options.base)) {
    if (value === undefined || HARNESS_SECRETS.test(name) || options.removeEnv.includes(name)) continue;
    env[name] = value;
  }
  env.WEIR_PROJECT_DIR = options.projectDir;
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  env.GEMINI_PROJECT_DIR = options.projectDir;
  if (options.pluginRoot !== undefined) env.CLAUDE_PLUGIN_ROOT = options.pluginRoot;
  return env;
}
