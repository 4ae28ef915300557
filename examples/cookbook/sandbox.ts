// Recipe: a sandbox. One plugin provides `ctx.sandbox` (here: confinement to a folder, decided on
// the real path); every tool that takes a path asks it through `exec.sandbox`: one choke point.
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { createHarness, definePlugin, defineTool, ToolCallError, type PathResolution } from '@weir/core';
import { describeResult, runIfMain } from './run-if-main.js';

export function folderSandbox(folder: string) {
  return definePlugin({
    name: 'folder-sandbox',
    async setup(ctx) {
      const root = await realpath(folder);
      ctx.sandbox.provide({
        root,
        async resolve(path): Promise<PathResolution> {
          let physical: string;
          try {
            physical = await realpath(resolve(root, path));
          } catch {
            return { ok: false, code: 'NOT_FOUND', message: `${path} does not exist in the workspace` };
          }
          const inside = relative(root, physical);
          if (inside.startsWith('..') || isAbsolute(inside)) {
            return { ok: false, code: 'PATH_OUTSIDE_WORKSPACE', message: `${path} is outside the workspace` };
          }
          return { ok: true, path: physical, relativePath: inside };
        },
      });
    },
  });
}

const cat = defineTool({
  name: 'cat',
  description: 'Prints a text file of the workspace.',
  tier: 'read-only',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  async execute({ path }, exec) {
    if (!exec.sandbox) throw new ToolCallError('NO_SANDBOX', 'No sandbox is loaded, so no file can be read.');
    const resolved = await exec.sandbox.resolve(path, 'read');
    if (!resolved.ok) throw new ToolCallError(resolved.code, resolved.message);
    return readFile(resolved.path, 'utf8');
  },
});

export async function main(): Promise<string[]> {
  const folder = await mkdtemp(join(tmpdir(), 'weir-sandbox-'));
  await writeFile(join(folder, 'notes.txt'), 'inside the sandbox');
  const harness = createHarness();
  harness.tools.register(cat);
  await harness.use(folderSandbox(folder));
  const lines: string[] = [];
  for (const path of ['notes.txt', '../../etc/hostname', 'missing.txt']) {
    lines.push(describeResult(path, await harness.executeToolCall({ id: path, name: 'cat', arguments: { path } })));
  }
  await harness.close();
  await rm(folder, { recursive: true, force: true });
  return lines;
}

await runIfMain(import.meta.url, main);
