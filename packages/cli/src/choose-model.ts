import type { LanguageModel, RetryEvent } from '@weir/core';
import { MODEL_PROVIDERS, once, type ModelProvider } from './model-providers.js';

/** The model weir talks to, and the words of its `[model]` line. */
export interface ChosenModel {
  /** The model's id (`mock:rules`, `openai:<model>`, `anthropic:<model>`), known before its package loads. */
  readonly id: string;
  readonly description: string;
  /**
   * The model itself. Its package (and through it `@weir/core`) is imported on the first call, so
   * the `[model]` line and the first prompt do not wait for it (cold start). Rejects with the
   * provider's error for a bad value (a base URL that is not a URL).
   */
  readonly load: () => Promise<LanguageModel>;
}

/** The mock's id, as `@weir/llm-mock` names it; a test checks that the two agree. */
export const MOCK_MODEL_ID = 'mock:rules';

/** Where the model's settings come from: flags win over the environment. */
export interface ModelSettings {
  readonly model?: string | undefined;
  /** Where `model` was given, for a message about what is missing: `--model` unless said (`weir.config.json "model"`). */
  readonly modelFrom?: string | undefined;
  readonly baseURL?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  /** Told before each retry's wait. */
  readonly onRetry?: (event: RetryEvent) => void;
}

/** A model named `<provider>:<id>`: a row of the provider table, or the mock (`mock:rules`). */
export interface ModelName {
  readonly provider: ModelProvider | 'mock';
  /** The id after the provider's prefix. */
  readonly id: string;
}

/**
 * Reads `<provider>:<id>` (`anthropic:claude-sonnet-4-5`, `openai:gpt-5`, `mock:rules`) as
 * `--model` and the config's `"model"` take it. `undefined` when the prefix is no provider's: a bare
 * id, even one with a colon (`llama3:8b`), which `--model` takes for an OpenAI-compatible endpoint.
 */
export function parseModelName(text: string, providers: readonly ModelProvider[] = MODEL_PROVIDERS): ModelName | undefined {
  if (text === MOCK_MODEL_ID) return { provider: 'mock', id: MOCK_MODEL_ID.slice(MOCK_MODEL_ID.indexOf(':') + 1) };
  const prefix = text.match(/^([a-z][a-z0-9-]*):(.+)$/);
  const provider = prefix === null ? undefined : providers.find((row) => row.prefix === prefix[1]);
  return provider === undefined ? undefined : { provider, id: prefix![2]! };
}

/** The names `parseModelName` takes, for a message: `anthropic:<id>, ..., mock:rules`. */
export function modelNameForms(providers: readonly ModelProvider[] = MODEL_PROVIDERS): string {
  return [...providers.map((provider) => `${provider.prefix}:<id>`), MOCK_MODEL_ID].join(', ');
}

/**
 * The model, from the provider table (`MODEL_PROVIDERS`): `--model <provider>:<id>` names the
 * provider (`anthropic:claude-sonnet-4-5`, `openai:gpt-4.1-mini`) or the mock (`mock:rules`); otherwise the first provider
 * whose variables are set (`ANTHROPIC_*`, then `OPENAI_*`); a bare `--model` or `--base-url` is an
 * OpenAI-compatible endpoint; nothing at all is the deterministic mock. A set but incomplete
 * configuration throws a `UsageError` naming what is missing (never a silent fall back to the
 * mock). The providers are imported by `load()` (cold start).
 */
export function chooseModel(settings: ModelSettings, providers: readonly ModelProvider[] = MODEL_PROVIDERS): ChosenModel {
  const { env } = settings;
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const setOf = (provider: ModelProvider) => Object.keys(env).filter((name) => name.startsWith(provider.env) && read(name) !== undefined);
  const flags = [...(settings.model === undefined ? [] : [settings.modelFrom ?? '--model']), ...(settings.baseURL === undefined ? [] : ['--base-url'])];
  const named = settings.model === undefined ? undefined : parseModelName(settings.model, providers);
  if (named?.provider === 'mock') return mockModel(`${MOCK_MODEL_ID} (the mock model)`);
  if (named !== undefined) {
    return named.provider.choose({ model: named.id, baseURL: settings.baseURL, read, onRetry: settings.onRetry, given: [...setOf(named.provider), ...flags] });
  }
  // A bare model id (or only a base URL) is what the CLI always took it for: an OpenAI-compatible endpoint.
  const chosen = flags.length > 0 ? providers.find((provider) => provider.prefix === 'openai') : providers.find((provider) => setOf(provider).length > 0);
  if (chosen === undefined) {
    return mockModel(`${MOCK_MODEL_ID} (the mock model: no ${[...new Set(providers.map((provider) => `${provider.env}*`))].join(' or ')} variable or --model is set)`);
  }
  return chosen.choose({ model: settings.model, baseURL: settings.baseURL, read, onRetry: settings.onRetry, given: [...setOf(chosen), ...flags] });
}

function mockModel(description: string): ChosenModel {
  return { id: MOCK_MODEL_ID, description, load: once(async () => (await import('@weir/llm-mock')).createMockModel()) };
}
