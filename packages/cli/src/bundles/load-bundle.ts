import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { definePlugin, HarnessError, isPlugin, type AsyncDisposer, type Harness, type Logger, type Plugin } from '@weir/core';
import type { CommandHooks, HookRunRecord } from '@weir/hooks';
import type { Bundle } from './bundle.js';

export interface LoadBundleOptions {
  /** The project folder: the bundle's hooks run there. */
  readonly projectDir: string;
  /**
   * Whether the bundle's code may run: a user's bundle always, a project's once the project is
   * trusted. An untrusted bundle loads no tool and starts no server; its hooks are listed, not run.
   */
  readonly trusted: boolean;
  readonly logger?: Logger;
  /** Told of each of its hooks' runs. */
  readonly onHookRun?: (run: HookRunRecord) => void;
  /** Import the tool modules again with the code now on disk, their own imports too (`/reload`). */
  readonly fresh?: boolean;
  /** The session its hooks are told about (`session_id`, `transcript_path`). */
  readonly session?: () => { readonly id: string; readonly transcriptPath?: string } | undefined;
}

/** A bundle's parts, registered in a harness. */
export interface LoadedBundle {
  readonly bundle: Bundle;
  /** The harness plugins it loaded, in load order. */
  readonly plugins: readonly string[];
  /** The tools those plugins registered. */
  readonly tools: readonly string[];
  /** Its hooks (the events outside a tool call are fired by the program running the agent). */
  readonly hooks: CommandHooks | undefined;
  /** Unloads every part, last first; idempotent. */
  readonly unload: AsyncDisposer;
}

/**
 * Registers the executable parts of `bundle` in `harness`: each tool module's plugin (its default
 * export, a plugin or a factory called with no options), its hooks through `@weir/hooks` (tool
 * events as a guard and taps named `plugin-hooks:<bundle>`, with `CLAUDE_PLUGIN_ROOT` the bundle's
 * folder), and each MCP server through `@weir/mcp`. Skills, commands and agents are files the
 * session reads (their folders are on `bundle`). If a part fails, what was loaded is unloaded and
 * the error names the bundle and the part.
 */
export async function loadBundle(bundle: Bundle, harness: Harness, options: LoadBundleOptions): Promise<LoadedBundle> {
  const before = new Set(harness.tools.names());
  const unloads: { name: string; unload: AsyncDisposer }[] = [];
  const unloadAll = async () => {
    while (unloads.length > 0) await unloads.pop()!.unload();
  };
  const use = async (part: string, make: () => Promise<Plugin>) => {
    try {
      const plugin = await make();
      unloads.push({ name: plugin.name, unload: await harness.use(plugin) });
    } catch (error) {
      await unloadAll().catch(() => undefined);
      throw new HarnessError('PLUGIN_SETUP_FAILED', `The plugin bundle "${bundle.name}" (${bundle.root}): ${part} did not load: ${(error as Error).message}`, { cause: error });
    }
  };

  if (options.trusted) for (const module of bundle.tools) await use(`tools ${module}`, () => importToolModule(module, options.fresh === true));
  let hooks: CommandHooks | undefined;
  if (bundle.hooks.length > 0) {
    const { commandHooks } = await import('@weir/hooks');
    hooks = commandHooks({
      layers: bundle.hooks.map((part) => ({ name: `plugin ${bundle.name}`, file: part.file, hooks: part.hooks, trusted: options.trusted, pluginRoot: bundle.root })),
      projectDir: options.projectDir,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.onHookRun === undefined ? {} : { onRun: options.onHookRun }),
      ...(options.session === undefined ? {} : { session: options.session }),
    });
    const setup = hooks.plugin.setup;
    // The CLI's own hooks plugin is named "hooks": each bundle's gets a name of its own.
    await use('hooks', async () => definePlugin({ name: `plugin-hooks:${bundle.name}`, setup }));
  }
  if (options.trusted && bundle.mcpServers.length > 0) {
    const { mcpServer } = await import('@weir/mcp');
    for (const server of bundle.mcpServers) await use(`MCP server ${server.name}`, async () => mcpServer(server));
  }

  const plugins = unloads.map((entry) => entry.name);
  let unloading: Promise<void> | undefined;
  return {
    bundle,
    plugins,
    tools: harness.tools.names().filter((name) => !before.has(name)),
    hooks,
    unload: () => (unloading ??= unloadAll()),
  };
}

/** A bundle's tool module: its default export is a plugin, or a factory of one. */
async function importToolModule(path: string, fresh: boolean): Promise<Plugin> {
  if (fresh) {
    const { freshImportPlugin } = await import('../fresh-import.js');
    return freshImportPlugin(pathToFileURL(path).href, dirname(path), undefined);
  }
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  const value = typeof module.default === 'function' ? (module.default as (options?: unknown) => unknown)(undefined) : module.default;
  const plugin = value instanceof Promise ? await value : value;
  if (!isPlugin(plugin)) throw new HarnessError('INVALID_PLUGIN', `${path}: the default export is not a weir plugin (or a function returning one).`);
  return plugin;
}
