import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHarness, type Harness } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { commandHooks, type CommandHooksOptions, type HookLayer } from '@weir/hooks';

/** A throwaway project folder with files of its own. */
export async function tempProject(): Promise<{ dir: string; write(path: string, text: string, mode?: number): Promise<string>; remove(): Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'weir-hooks-')));
  return {
    dir,
    async write(path, text, mode) {
      const file = join(dir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
      if (mode !== undefined) await chmod(file, mode);
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** One trusted layer holding `hooks`, named after a settings file in the project. */
export function layer(dir: string, hooks: unknown, overrides: Partial<HookLayer> = {}): HookLayer {
  return { name: 'project', file: join(dir, '.weir', 'settings.json'), hooks, trusted: true, ...overrides };
}

/** A harness with the file tools (writes on) on `dir` and the hooks of `layers`, loaded after them. */
export async function hookedHarness(dir: string, layers: HookLayer[], options: Partial<CommandHooksOptions> = {}): Promise<{ harness: Harness; hooks: ReturnType<typeof commandHooks> }> {
  const harness = createHarness();
  await harness.use(fsTools({ root: dir, write: true }));
  const hooks = commandHooks({ layers, projectDir: dir, ...options });
  await harness.use(hooks.plugin);
  return { harness, hooks };
}
