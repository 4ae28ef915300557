import { pathToFileURL } from 'node:url';
import { isPlugin, type Plugin } from './define-plugin.js';
import type { AsyncDisposer } from '../disposer.js';
import { HarnessError } from '../harness-error.js';
import type { Harness } from '../harness.js';

export interface ImportPluginOptions {
  /** Where to resolve the package from, as node would from a file in that folder. Default: the current directory. */
  readonly from?: string | URL;
  /** Passed to the package's default export when it is a plugin factory. */
  readonly options?: unknown;
  /**
   * Export conditions to resolve with. Default: node's (`node`, `import`) plus any given to this
   * process with `--conditions` / `-C`, so a package resolves the way node itself would resolve it.
   */
  readonly conditions?: readonly string[];
}

/** The export conditions this process was started with (`--conditions=x`, `-C x`). */
function processConditions(): string[] {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const conditions: string[] = [];
  flags.forEach((flag, index) => {
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(flag);
    if (inline) conditions.push(inline[1]!);
    else if ((flag === '--conditions' || flag === '-C') && flags[index + 1]) conditions.push(flags[index + 1]!);
  });
  return conditions;
}

/**
 * Imports a plugin published as an npm package: its default export is a plugin, or a factory
 * returning one (called with `options.options`). Throws `PLUGIN_NOT_FOUND` when the package cannot
 * be resolved and `INVALID_PLUGIN` when its default export is not a plugin; both name the package.
 */
export async function importPlugin(packageName: string, options: ImportPluginOptions = {}): Promise<Plugin> {
  const parent = options.from === undefined ? pathToFileURL(`${process.cwd()}/`).href : toDirectoryURL(options.from);
  let url: string;
  // import-meta-resolve is loaded by the first plugin import, not with core (cold start).
  const { moduleResolve } = await import('import-meta-resolve');
  try {
    const conditions = new Set(options.conditions ?? ['node', 'import', ...processConditions()]);
    url = moduleResolve(packageName, new URL(parent), conditions).href;
  } catch (error) {
    if (isFileSpecifier(packageName)) {
      const file = packageName.startsWith('file:') ? new URL(packageName) : new URL(packageName, parent);
      throw new HarnessError('PLUGIN_NOT_FOUND', `The plugin file "${packageName}" does not exist (looked for ${decodeURIComponent(file.pathname)}). Check the path: a relative one is taken from ${decodeURIComponent(new URL(parent).pathname)}.`, { cause: error });
    }
    throw new HarnessError('PLUGIN_NOT_FOUND', `Cannot find the plugin package "${packageName}" from ${new URL(parent).pathname}. Install it (npm install ${packageName}) or check the name.`, { cause: error });
  }
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    throw new HarnessError('PLUGIN_NOT_FOUND', `The plugin package "${packageName}" failed to load: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const exported = module.default;
  let plugin: unknown = exported;
  if (typeof exported === 'function') {
    try {
      plugin = await (exported as (options: unknown) => unknown)(options.options);
    } catch (error) {
      throw new HarnessError('INVALID_PLUGIN', `The plugin factory exported by "${packageName}" threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  if (!isPlugin(plugin)) {
    throw new HarnessError('INVALID_PLUGIN', `The default export of "${packageName}" is not a plugin or a plugin factory. Export default definePlugin({ name, setup }) or a function returning one.`);
  }
  return plugin;
}

/** A path or a file URL, not a package name: `./x.mjs`, `../x.mjs`, `/abs/x.mjs`, `file:///x.mjs`. */
function isFileSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/') || specifier.startsWith('file:');
}

/**
 * Imports and loads plugin packages in order, into `harness`. If one fails, the ones this call
 * loaded are unloaded again and the error is thrown. Resolves to one disposer unloading them all,
 * last first.
 */
export async function loadPlugins(packageNames: readonly string[], harness: Harness, options: Omit<ImportPluginOptions, 'options'> = {}): Promise<AsyncDisposer> {
  const unloads: AsyncDisposer[] = [];
  // Last first; a disposer leaves the list only once it has run, so after a refused unload
  // (PLUGIN_IN_USE) calling this again picks up where it stopped.
  const unloadAll = async () => {
    while (unloads.length > 0) {
      await unloads[unloads.length - 1]!();
      unloads.pop();
    }
  };
  try {
    for (const name of packageNames) unloads.push(await harness.use(await importPlugin(name, options)));
  } catch (error) {
    await unloadAll();
    throw error;
  }
  return unloadAll;
}

function toDirectoryURL(from: string | URL): string {
  const href = from instanceof URL ? from.href : from.startsWith('file:') ? from : pathToFileURL(from).href;
  return href.endsWith('/') ? href : `${href}/`;
}
