import { join } from 'node:path';
import type { Agent, Logger, Session } from '@weir/core';
import type { Approver, SafetyMode, SafetySettings } from '@weir/safety';
import type { SessionStore } from '@weir/session';
import type { Checkpoints, TextSource } from '@weir/tools-fs';
import type { ChosenModel } from './choose-model.js';
import { BUILTIN_COMMAND_NAMES } from './builtin-commands.js';
import { bundleRoots } from './bundles/bundle-roots.js';
import { composeHarness, type ComposedHarness } from './compose-harness.js';
import { fileExists } from './file-exists.js';
import { checkpointsDir, openSession, sessionFile, workspaceSessions, type SessionChoice } from './session-store.js';
import { autoCompaction } from './compaction-settings.js';
import { trustFolder } from './trust-folder.js';
import { UsageError } from './usage-error.js';
import { projectConfigFile, readWeirConfig, type WeirConfig } from './weir-config.js';
import { userSettingsFile, weirHome } from './weir-home.js';
import { loadWorkspaceExtensions, useWorkspaceExtensions, type WorkspaceExtensions } from './workspace-extensions.js';

/** What every weir session is started from. */
export interface StartOptions {
  readonly workspace: string;
  readonly model: ChosenModel;
  /** `--config`: the user named it, so it is used as it is. */
  readonly configFlag: string | undefined;
  readonly mode: string | undefined;
  readonly approver: Approver;
  /** The file tools' text source (`weir acp` with WEIR_ACP_EDITOR_FILES=1: the editor's buffers). */
  readonly textSource?: TextSource | undefined;
  readonly logger: Logger;
  readonly session: SessionChoice;
  readonly env: NodeJS.ProcessEnv;
  /** `--no-shell`: no `run_command` (the config's `"shell": false` does the same). */
  readonly noShell?: boolean;
  /** Status lines. */
  readonly say: (line: string) => void;
  /**
   * Asked when the workspace has project settings (`weir.config.json`, `.weir/settings.json`) and is
   * not trusted yet; `true` trusts it for good. Without it (headless), nothing is asked and the
   * project's config is not used.
   */
  readonly askTrust?: (folder: string, files: readonly string[]) => Promise<boolean>;
}

/** A running weir: harness, session and agent. */
export interface StartedWeir {
  readonly composed: ComposedHarness;
  readonly store: SessionStore;
  readonly session: Session;
  readonly resumed: boolean;
  /** The agent; `resetAgent()` makes a new one from the session (after a conversation rewind). */
  agent: Agent;
  /** The session's checkpoints (`/rewind`); the shell snapshot is on. */
  readonly checkpoints: Checkpoints;
  readonly resetAgent: () => Promise<void>;
  /** The config whose plugins and servers are loaded, if any. */
  readonly config: WeirConfig | undefined;
  /** When the conversation is compacted on its own, in words (`/model`). */
  readonly compaction: string;
  /** The instructions, skills, commands and subagents read from the workspace and the weir home (`/context`). */
  readonly extensions: WorkspaceExtensions;
  /** Reads the config again (for `/reload`): the same file, trust permitting. */
  readonly rereadConfig: () => Promise<WeirConfig | undefined>;
  readonly close: () => Promise<void>;
}

/** The system message of a new session. */
export function systemPrompt(workspace: string): string {
  return [
    `You are weir, an agent working in the folder ${workspace} (the workspace).`,
    'Use your tools to look at files before answering questions about them, and to change them when asked.',
    'Paths are relative to the workspace. When a tool call fails or is denied, read why, and adapt or say so.',
  ].join(' ');
}

const SAFETY_MODES = ['read-only', 'ask', 'auto', 'allow-all-unsafe'];

/**
 * Starts weir in a workspace: the safety settings layers (the user's file, the project's
 * `.weir/settings.json`), the config (`--config`, or the project's `weir.config.json` only once the
 * folder is trusted: until then it is not loaded, and the project's safety settings can only
 * tighten), the harness, the session and the agent. Everything opened is closed again when a later
 * step fails.
 */
export async function startWeir(options: StartOptions): Promise<StartedWeir> {
  if (options.mode !== undefined && !SAFETY_MODES.includes(options.mode)) {
    throw new UsageError(`--mode must be one of ${SAFETY_MODES.join(', ')}, got ${JSON.stringify(options.mode)}.`);
  }
  const { loadSafetySettings, CLAUDE_PROJECT_SETTINGS_FILES } = await import('@weir/safety');
  const settingsFile = userSettingsFile(options.env);
  let compat: { claude: boolean } | undefined;
  const loadSettings = () => loadSafetySettings({ user: settingsFile, project: options.workspace, ...(compat === undefined ? {} : { compat }) });
  let settings: SafetySettings = await loadSettings();

  const projectFile = projectConfigFile(options.workspace);
  // Claude Code's project files hold hooks (commands) too: with the compat switch they wait for trust as well.
  const claudeFiles = settings.compat.claude ? CLAUDE_PROJECT_SETTINGS_FILES.map((file) => join(options.workspace, file)) : [];
  const projectFiles = (await Promise.all([projectFile, join(options.workspace, '.weir', 'settings.json'), join(options.workspace, '.weir', 'plugins.json'), ...claudeFiles].map(async (file) => ((await fileExists(file)) ? file : undefined)))).filter(
    (file): file is string => file !== undefined,
  );
  if (!settings.projectTrusted && projectFiles.length > 0 && options.configFlag === undefined && options.askTrust !== undefined) {
    if (await options.askTrust(options.workspace, projectFiles)) {
      const folder = await trustFolder(settingsFile, options.workspace);
      options.say(`[trust] ${folder} is trusted (saved in ${settingsFile})`);
      settings = await loadSettings();
    }
  }

  const readConfig = async (): Promise<WeirConfig | undefined> => {
    if (options.configFlag !== undefined) return readWeirConfig(options.configFlag, true);
    if (!(await fileExists(projectFile))) return undefined;
    if (!settings.projectTrusted) return undefined;
    return readWeirConfig(projectFile, false);
  };
  const config = await readConfig();
  if (config?.compat.claude === true && !settings.compat.claude) {
    compat = { claude: true };
    settings = await loadSettings();
  }
  if (config === undefined && options.configFlag === undefined && !settings.projectTrusted && (await fileExists(projectFile))) {
    options.say(`[config] ${projectFile} is not used: this folder is not trusted. Trust it with: weir trust ${quote(options.workspace)}`);
  }

  let opened: Session | undefined;
  const composed = await composeHarness({
    workspace: options.workspace,
    config,
    settings,
    mode: options.mode as SafetyMode | undefined,
    approver: options.approver,
    ...(options.textSource === undefined ? {} : { textSource: options.textSource }),
    logger: options.logger,
    noShell: options.noShell === true || config?.shell === false,
    say: options.say,
    session: () => (opened === undefined ? undefined : { id: opened.id, transcriptPath: sessionFile(options.workspace, opened.id) }),
    bundles: { env: options.env, projectTrusted: settings.projectTrusted },
  });
  for (const why of composed.policy.ignored) options.say(`[safety] ${why}`);
  const notRun = composed.hooks.hooks.filter((hook) => hook.skipped !== undefined).length;
  if (notRun > 0) options.say(`[hooks] ${notRun} hook${notRun === 1 ? '' : 's'} will not run (/hooks says why)`);
  try {
    // AGENTS.md, skills, commands and agents: Claude Code's files too under the compat switch.
    const extensions = await loadWorkspaceExtensions({
      workspace: options.workspace,
      home: weirHome(options.env),
      claude: settings.compat.claude,
      reservedCommands: BUILTIN_COMMAND_NAMES,
      // The skills, commands and agents of the plugin bundles the session loaded.
      ...(composed.bundles === undefined ? {} : { more: bundleRoots(composed.bundles.loaded().map((loaded) => loaded.bundle)) }),
    });
    const unread = [extensions.instructions, extensions.skills, extensions.commands, extensions.agents].reduce((sum, loaded) => sum + loaded.problems.filter((problem) => problem.reason.startsWith('not loaded')).length, 0);
    if (unread > 0) options.say(`[context] ${unread} file${unread === 1 ? ' was' : 's were'} not loaded (/context says why)`);
    for (const cut of extensions.instructions.cuts) options.say(`[context] ${cut}`);
    const store = await workspaceSessions(options.workspace);
    const { session, resumed } = await openSession(store, options.session, options.say);
    opened = session;
    let checkpoints: Checkpoints | undefined;
    try {
      // Before the agent: a rewind a killed weir left half done is finished first, and its turns are
      // checkpointed (the shell's changes too) from the first one on.
      const { openCheckpoints } = await import('@weir/tools-fs');
      checkpoints = await openCheckpoints({ root: options.workspace, dir: checkpointsDir(options.workspace, session.id), session, shell: true, logger: options.logger });
      if (checkpoints.recovered !== undefined) options.say(`[rewind] finished an interrupted ${checkpoints.recovered.kind}: ${checkpoints.recovered.files.length} files set back`);
      await composed.harness.use(checkpoints.plugin);
      const { createAgent } = await import('@weir/core');
      // SessionStart hooks' context joins the system message of a new session.
      const start = await composed.hooks.events.sessionStart(resumed ? 'resume' : 'startup');
      const system = [systemPrompt(options.workspace), extensions.systemText, start.context ?? ''].filter((part) => part !== '').join('\n\n');
      const model = await options.model.load();
      await useWorkspaceExtensions(composed.harness, extensions, model, options.say, composed.hooks.events);
      // Past the configured share of the context window, older steps become a summary (PreCompact hooks may stop it).
      const compaction = autoCompaction(config?.compact, model);
      const newAgent = () => createAgent({ model, harness: composed.harness, session, system, ...(compaction.options === undefined ? {} : { compact: compaction.options }) });
      const kept = checkpoints;
      const started: StartedWeir = {
        composed,
        store,
        session,
        resumed,
        agent: newAgent(),
        checkpoints: kept,
        resetAgent: async () => {
          started.agent = newAgent();
        },
        config,
        compaction: compaction.description,
        extensions,
        rereadConfig: readConfig,
        close: async () => {
          await composed.hooks.events.sessionEnd('prompt_input_exit').catch(() => undefined);
          await kept.close().catch(() => undefined);
          await session.close().catch(() => undefined);
          await composed.close();
        },
      };
      return started;
    } catch (error) {
      await checkpoints?.close().catch(() => undefined);
      await session.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    await composed.close().catch(() => undefined);
    throw error;
  }
}


function quote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
