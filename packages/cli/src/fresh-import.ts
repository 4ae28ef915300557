import { pathToFileURL } from 'node:url';
import { HarnessError, isPlugin, type Plugin } from '@weir/core';
import { RELOAD_HOOKS_SOURCE } from './reload-hooks.js';

let registered = false;
let generation = 0;

/** The export conditions of this process (`--conditions`), so a package resolves as node itself would. */
function conditions(): Set<string> {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const found = new Set(['node', 'import']);
  flags.forEach((flag, index) => {
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(flag);
    if (inline) found.add(inline[1]!);
    else if ((flag === '--conditions' || flag === '-C') && flags[index + 1]) found.add(flags[index + 1]!);
  });
  return found;
}

/**
 * Imports a plugin package again, with the code now on disk in every one of its files (see
 * `reload-hooks.ts` for how), and makes its plugin as `importPlugin` does: the default export is a
 * plugin or a factory called with `options`. Throws `PLUGIN_NOT_FOUND` or `INVALID_PLUGIN` naming the
 * package. The hooks are registered on the first call: a run without `/reload` never pays for them.
 */
export async function freshImportPlugin(packageName: string, from: string, options: unknown): Promise<Plugin> {
  if (!registered) {
    const { register } = await import('node:module');
    register(`data:text/javascript,${encodeURIComponent(RELOAD_HOOKS_SOURCE)}`);
    registered = true;
  }
  generation += 1;
  // import-meta-resolve: node's ESM resolution from another folder, as core's importPlugin uses.
  const { moduleResolve } = await import('import-meta-resolve');
  let url: URL;
  try {
    url = moduleResolve(packageName, pathToFileURL(from.endsWith('/') ? from : `${from}/`), conditions());
  } catch (error) {
    throw new HarnessError('PLUGIN_NOT_FOUND', `Cannot find the plugin package "${packageName}" from ${from}. Install it (npm install ${packageName}) or check the name.`, { cause: error });
  }
  url.searchParams.set('weir-reload', String(generation));
  let module: { default?: unknown };
  try {
    module = (await import(url.href)) as { default?: unknown };
  } catch (error) {
    throw new HarnessError('PLUGIN_NOT_FOUND', `The plugin package "${packageName}" failed to load: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let plugin: unknown = module.default;
  if (typeof plugin === 'function') {
    try {
      plugin = await (plugin as (options: unknown) => unknown)(options);
    } catch (error) {
      throw new HarnessError('INVALID_PLUGIN', `The plugin factory exported by "${packageName}" threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  if (!isPlugin(plugin)) throw new HarnessError('INVALID_PLUGIN', `The default export of "${packageName}" is not a plugin or a plugin factory.`);
  return plugin;
}
