import type { TextSource } from '@weir/tools-fs';
import { createHarness, importPlugin, type AsyncDisposer, type Harness, type Logger, type Plugin } from '@weir/core';
import type { Approver, SafetyMode, SafetyPlugin, SafetySettings } from '@weir/safety';
import type { CommandHooks, HookRunRecord } from '@weir/hooks';
import type { McpServerPlugin } from '@weir/mcp';
import { ConfigError } from './config-error.js';
import { freshImportPlugin } from './fresh-import.js';
import { loadShell, type ShellState } from './load-shell.js';
import { oneLineError } from './one-line-error.js';
import { shellHiddenPaths } from './shell-hidden-paths.js';
import type { WeirConfig } from './weir-config.js';
import { bundleAwareHooks } from './bundles/bundle-aware-hooks.js';
import { sessionBundles, type SessionBundles } from './bundles/session-bundles.js';

/** What the harness is built from. */
export interface ComposeOptions {
  /** The workspace root: the file tools are confined to it. */
  readonly workspace: string;
  /** The config whose plugins and MCP servers load (already trusted), if any. */
  readonly config: WeirConfig | undefined;
  readonly settings: SafetySettings;
  /** `--mode`; the settings' mode otherwise. */
  readonly mode: SafetyMode | undefined;
  readonly approver: Approver;
  /** The file tools read and write this source's text where it has the file (an editor's buffers). */
  readonly textSource?: TextSource | undefined;
  readonly logger: Logger;
  /** `--no-shell` or `"shell": false`: no `run_command`. */
  readonly noShell?: boolean;
  /** Status lines (a hook's `systemMessage`, a hook that failed). */
  readonly say?: (line: string) => void;
  /** The session hooks are told about (`session_id`, `transcript_path`), once it is open. */
  readonly session?: () => { readonly id: string; readonly transcriptPath?: string } | undefined;
  /** Load the plugin bundles `weir plugin add` recorded (the user's; the project's once trusted). */
  readonly bundles?: { readonly env: NodeJS.ProcessEnv; readonly projectTrusted: boolean };
}

/** One plugin or MCP server the config loaded. */
export interface LoadedEntry {
  readonly kind: 'plugin' | 'server';
  /** The npm package or the server's name. */
  readonly source: string;
  /** The plugin's name in the harness. */
  readonly plugin: string;
  /** The tools it registered. */
  readonly tools: readonly string[];
}

/** The CLI's harness: built-in tools and safety, then the config's plugins and servers. */
export interface ComposedHarness {
  readonly harness: Harness;
  readonly policy: SafetyPlugin;
  /** The command hooks of the settings layers (`/hooks` lists them; the turns run between their events). */
  readonly hooks: CommandHooks;
  /** Whether `run_command` is offered (and if not, why). */
  readonly shell: ShellState;
  /** What the config loaded, in load order. */
  loaded(): readonly LoadedEntry[];
  /** The config's MCP servers now loaded, in load order: their prompts are slash commands. */
  mcpServers(): readonly McpServerPlugin[];
  /** The plugin bundles loaded (after the config's plugins), if asked for. */
  readonly bundles: SessionBundles | undefined;
  /**
   * Unloads every plugin and server of the config (last first), then loads `config`'s again with
   * the code now on disk, telling `say` each step. A plugin that fails to load is reported and the
   * others still load; never rejects.
   */
  reload(config: WeirConfig | undefined, say: (line: string) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the harness every weir session runs on, from weir's public packages only: the file tools
 * of `@weir/tools-fs` (writes included) confined to the workspace, the shell tool of
 * `@weir/tools-shell` where its sandbox works (load-shell.ts), `@weir/safety` with the settings
 * layers and the given approver, then each plugin package and MCP server of the config, in order.
 * A plugin or server that fails to load fails the whole composition with a `ConfigError` naming the
 * file and the entry; what was loaded is unloaded again.
 */
export async function composeHarness(options: ComposeOptions): Promise<ComposedHarness> {
  const [{ fsTools }, { safety, hookLayers, networkAllowOf }, { commandHooks, hookLabel }] = await Promise.all([import('@weir/tools-fs'), import('@weir/safety'), import('@weir/hooks')]);
  const hooks = commandHooks({
    layers: hookLayers(options.settings),
    projectDir: options.workspace,
    logger: options.logger,
    session: options.session,
    onRun: (run) => tellHookRun(run, hookLabel(run.hook), options.say),
  });
  // A guard hook may take its own timeout (60 s by default): core's bound on a guard must not cut it first.
  const longest = Math.max(0, ...hooks.hooks.filter((hook) => hook.skipped === undefined && hook.event === 'PreToolUse').map((hook) => hook.timeoutMs));
  const harness = createHarness({ logger: options.logger, ...(longest > 25_000 ? { hookTimeoutMs: longest + 5_000 } : {}) });
  try {
    await harness.use(fsTools({ root: options.workspace, write: true, ...(options.textSource === undefined ? {} : { textSource: options.textSource }) }));
    const networkAllow = [...new Set([...networkAllowOf(options.settings), ...(options.config?.shellNetworkAllow ?? [])])];
    const shell = await loadShell(harness, { workspace: options.workspace, hidden: shellHiddenPaths(options.settings), networkAllow, off: options.noShell === true, say: options.say });
    // The person is told an approval waits (Notification hooks), then asked.
    const approver: Approver = (request) => {
      void hooks.events.notification(`weir needs your approval for ${request.toolName}`, 'permission_prompt').catch(() => undefined);
      return options.approver(request);
    };
    const policy = safety({ settings: options.settings, approver, ...(options.mode === undefined ? {} : { mode: options.mode }) });
    await harness.use(policy);
    // After safety's guards, before approval: a PreToolUse hook sees only calls the rules let through.
    await harness.use(hooks.plugin);
    let entries: { entry: LoadedEntry; unload: AsyncDisposer; server?: McpServerPlugin }[] = [];

    const loadOne = async (config: WeirConfig, kind: LoadedEntry['kind'], index: number, fresh: boolean) => {
      const before = new Set(harness.tools.names());
      let plugin: Plugin;
      let server: McpServerPlugin | undefined;
      let source: string;
      if (kind === 'plugin') {
        const { package: name, options: pluginOptions } = config.plugins[index]!;
        source = name;
        plugin = fresh ? await freshImportPlugin(name, config.dir, pluginOptions) : await importPlugin(name, { from: config.dir, options: pluginOptions });
      } else {
        const options = config.servers[index]!;
        source = options.name;
        const { mcpServer } = await import('@weir/mcp');
        plugin = server = mcpServer(options);
      }
      const unload = await harness.use(plugin);
      const tools = harness.tools.names().filter((name) => !before.has(name));
      const entry: LoadedEntry = { kind, source, plugin: plugin.name, tools };
      entries.push({ entry, unload, ...(server === undefined ? {} : { server }) });
      return entry;
    };
    const all = (config: WeirConfig) => [
      ...config.plugins.map((_, index) => ['plugin', index] as const),
      ...config.servers.map((_, index) => ['server', index] as const),
    ];
    const unloadAll = async (say?: (line: string) => void) => {
      while (entries.length > 0) {
        const { entry, unload } = entries[entries.length - 1]!;
        try {
          await unload();
          say?.(`[reload] unloaded ${describe(entry)}${entry.tools.length > 0 ? ` (tools gone: ${entry.tools.join(', ')})` : ''}`);
        } catch (error) {
          say?.(`[reload] ${describe(entry)} did not unload cleanly: ${oneLineError(error)}`);
        }
        entries = entries.slice(0, -1);
      }
    };

    if (options.config !== undefined) {
      const config = options.config;
      for (const [kind, index] of all(config)) {
        try {
          await loadOne(config, kind, index, false);
        } catch (error) {
          await unloadAll();
          const what = kind === 'plugin' ? `plugins[${index}] "${config.plugins[index]!.package}"` : `mcpServers.${config.servers[index]!.name}`;
          throw new ConfigError(`The config file ${config.file}: ${what} did not load: ${oneLineError(error)}`, { cause: error });
        }
      }
    }

    const bundles = options.bundles === undefined
      ? undefined
      : sessionBundles(harness, { ...options.bundles, workspace: options.workspace, logger: options.logger, ...(options.session === undefined ? {} : { session: options.session }), onHookRun: (run) => tellHookRun(run, hookLabel(run.hook), options.say) });
    await bundles?.load(options.say ?? (() => undefined));

    return {
      harness,
      policy,
      // The bundles' hooks on SessionStart, UserPromptSubmit, Stop... join the settings' ones.
      hooks: bundles === undefined ? hooks : bundleAwareHooks(hooks, bundles),
      shell,
      loaded: () => entries.map(({ entry }) => entry),
      mcpServers: () => entries.flatMap(({ server }) => (server === undefined ? [] : [server])),
      bundles,
      reload: async (config, say) => {
        await bundles?.unload(say);
        await unloadAll(say);
        if (config === undefined) say('[reload] no config: no plugin packages or MCP servers of its own to load');
        for (const [kind, index] of config === undefined ? [] : all(config)) {
          try {
            const entry = await loadOne(config!, kind, index, kind === 'plugin');
            say(`[reload] loaded ${describe(entry)}${entry.tools.length > 0 ? `: ${entry.tools.join(', ')}` : ''}`);
          } catch (error) {
            say(`[reload] ${kind === 'plugin' ? `plugin "${config!.plugins[index]!.package}"` : `server ${config!.servers[index]!.name}`} did not load: ${oneLineError(error)}`);
          }
        }
        await bundles?.load(say, true);
      },
      close: () => harness.close(),
    };
  } catch (error) {
    await harness.close().catch(() => undefined);
    throw error;
  }
}

/** A hook's message for the person, and a failure, as a status line. */
function tellHookRun(run: HookRunRecord, label: string, say: ((line: string) => void) | undefined): void {
  if (say === undefined) return;
  if (run.outcome.systemMessage !== undefined && !run.outcome.suppressOutput) say(`[hook] ${run.outcome.systemMessage}`);
  if (run.outcome.failure !== undefined) say(`[hook] ${run.hook.eventName} "${label}" (${run.hook.layer.file}) ${run.outcome.failure}: ${run.effect}`);
  // An automatic compaction has no command to answer: the person hears of a stop here.
  else if (run.hook.event === 'PreCompact' && run.effect === 'blocked') say(`[hook] ${run.hook.eventName} "${label}" (${run.hook.layer.file}) stopped the compaction: ${run.outcome.reason ?? run.outcome.stopReason ?? 'no reason given'}`);
}

function describe(entry: LoadedEntry): string {
  return entry.kind === 'plugin' ? `plugin ${entry.plugin} (${entry.source})` : `MCP server ${entry.source}`;
}
