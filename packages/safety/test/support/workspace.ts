import { lstat, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { definePlugin, type PathResolution, type Plugin, type Sandbox } from '@weir/core';

/** A fresh temporary workspace, canonical from the start (the temp dir may sit behind a symlink). */
export async function makeWorkspace(): Promise<{ root: string; remove: () => Promise<void> }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'weir-safety-')));
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * A small real sandbox for the tests (tools-fs provides the real one): resolves physically with
 * realpath, a missing leaf through its nearest existing ancestor, and refuses anything outside.
 */
export function realSandbox(root: string): Sandbox & { calls: number } {
  const sandbox = {
    root,
    calls: 0,
    async resolve(path: string): Promise<PathResolution> {
      sandbox.calls += 1;
      if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) return { ok: false, code: 'INVALID_PATH', message: 'not a usable path' };
      let canonical: string;
      try {
        canonical = await canonicalize(resolve(root, path));
      } catch (error) {
        return { ok: false, code: 'INVALID_PATH', message: (error as Error).message };
      }
      const rel = relative(root, canonical);
      const inside = rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
      if (!inside) return { ok: false, code: 'PATH_OUTSIDE_WORKSPACE', message: `${path} is outside the workspace` };
      return { ok: true, path: canonical, relativePath: rel };
    },
  };
  return sandbox;
}

async function canonicalize(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // A dangling symlink is not a missing leaf: refuse it rather than follow the parent.
    const isLink = await lstat(path).then((stat) => stat.isSymbolicLink(), () => false);
    if (isLink) throw new Error(`${path} is a dangling symbolic link`);
    const parent = dirname(path);
    if (parent === path) throw error;
    return join(await canonicalize(parent), path.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
  }
}

/** A plugin that provides `sandbox`. */
export function sandboxPlugin(sandbox: Sandbox): Plugin {
  return definePlugin({ name: 'test-sandbox', setup: (ctx) => void ctx.sandbox.provide(sandbox) });
}
