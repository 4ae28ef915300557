/**
 * The module loader hooks behind `/reload`, as source text: registered once with
 * `module.register` as a `data:` URL, so they need no file of their own in `dist` and load the same
 * way under a TypeScript runner.
 *
 * ES modules are cached by URL for the life of the process, so importing a changed plugin again
 * gives its old code. A plugin is reloaded by importing its entry with `?weir-reload=<n>`, a new
 * URL; these hooks give the same query to every module that entry imports, directly or not, **within
 * the plugin's own package** (the nearest `package.json` folder), so every file of the plugin is read
 * from disk again. Its dependencies (other packages: `@weir/core` among them) keep their instance:
 * one core per program. The old instances stay in memory (ES modules cannot be unloaded): a few KB
 * per reload.
 */
export const RELOAD_HOOKS_SOURCE = `
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
const roots = new Map();
function packageRoot(url) {
  let dir = dirname(fileURLToPath(url));
  const start = dir;
  if (roots.has(start)) return roots.get(start);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) break;
    const up = dirname(dir);
    if (up === dir) { dir = ''; break; }
    dir = up;
  }
  roots.set(start, dir);
  return dir;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const parent = context.parentURL;
  if (!parent || !parent.startsWith('file:') || !result.url.startsWith('file:')) return result;
  const tag = new URL(parent).searchParams.get('weir-reload');
  if (tag === null) return result;
  const url = new URL(result.url);
  if (url.searchParams.has('weir-reload') || packageRoot(url.href) !== packageRoot(parent)) return result;
  url.searchParams.set('weir-reload', tag);
  return { ...result, url: url.href };
}
`;
