import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHarness, definePlugin, type Harness, type ToolResult } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { safety, type SafetyOptions } from '@weir/safety';

/**
 * A real temporary workspace for the real file tools, with sentinel files: `secret(relative)`
 * writes a file holding this workspace's unique marker, and `expectUnchanged` reads every file
 * written back. No result may ever contain the marker of a file a rule hides.
 */
export interface FsWorkspace {
  readonly root: string;
  /** Unique text in every secret file. */
  readonly marker: string;
  file(relative: string, content: string): Promise<void>;
  /** A file whose content is `marker` plus its name. */
  secret(relative: string): Promise<void>;
  link(relative: string, target: string): Promise<void>;
  /** Points an existing link somewhere else (unlink, then link). */
  relink(relative: string, target: string): Promise<void>;
  read(relative: string): Promise<string | undefined>;
  remove(): Promise<void>;
}

export async function makeFsWorkspace(): Promise<FsWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'weir-safety-fs-')));
  const marker = `SENTINEL-${randomBytes(8).toString('hex')}`;
  const at = (relative: string) => join(root, relative);
  const file = async (relative: string, content: string) => {
    await mkdir(dirname(at(relative)), { recursive: true });
    await writeFile(at(relative), content);
  };
  return {
    root,
    marker,
    file,
    secret: (relative) => file(relative, `${marker} in ${relative}\n`),
    link: async (relative, target) => {
      await mkdir(dirname(at(relative)), { recursive: true });
      await symlink(target, at(relative));
    },
    relink: async (relative, target) => {
      await unlink(at(relative));
      await symlink(target, at(relative));
    },
    read: (relative) => readFile(at(relative), 'utf8').catch(() => undefined),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Everything a result carries that the model or a program could read. */
export function visible(result: ToolResult): string {
  return `${result.content}\n${JSON.stringify(result.ok ? result.value : result.error)}`;
}

let counter = 0;

/** A harness with the real file tools on `root` (writes on) and safety with `options`. */
export async function fsSafetyHarness(root: string, options: SafetyOptions, extra: { approvalTimeoutMs?: number } = {}) {
  const harness: Harness = createHarness(extra);
  await harness.use(fsTools({ root, write: true }));
  await harness.use(safety(options));
  const call = (name: string, args: Record<string, unknown>) => harness.executeToolCall({ id: `fs_call_${(counter += 1)}`, name, arguments: args });
  return { harness, call };
}

/** A plugin whose guard runs `effect` once per call, after the guards loaded before it. */
export function afterGuards(effect: () => Promise<void>) {
  return definePlugin({
    name: 'test-after-guards',
    setup(ctx) {
      ctx.guards.add('test-after-guards', async () => {
        await effect();
        return undefined;
      });
    },
  });
}
