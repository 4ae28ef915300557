import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createHarness, type Harness, type Session } from '@weir/core';
import { createMemorySessionStore } from '@weir/session';
import { fsTools, openCheckpoints, type Checkpoints } from '@weir/tools-fs';
import { shellTools } from '@weir/tools-shell';
import { interleavedMedians, printTable } from './measure.js';

const exec = promisify(execFile);
const FILES = 10_000;
const PER_DIRECTORY = 100;

/** A workspace of 10,000 small files in 100 folders, given to the sandbox user when run as root. */
async function makeWorkspace(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'weir-bench-checkpoints-'));
  for (let d = 0; d < FILES / PER_DIRECTORY; d += 1) {
    const dir = join(root, `pkg-${d}`);
    await mkdir(dir);
    await Promise.all(Array.from({ length: PER_DIRECTORY }, (_, f) => writeFile(join(dir, `file-${f}.ts`), `export const value${d}_${f} = ${d * PER_DIRECTORY + f};\n`.repeat(4))));
  }
  if (process.getuid?.() === 0) await exec('chown', ['-R', '65534:65534', root]);
  return root;
}

interface Rig {
  readonly root: string;
  readonly harness: Harness;
  readonly session: Session;
  readonly checkpoints: Checkpoints | undefined;
  close(): Promise<void>;
}

async function rig(withCheckpoints: boolean): Promise<Rig> {
  const root = await makeWorkspace();
  const session = await createMemorySessionStore().create();
  const harness = createHarness();
  await harness.use(fsTools({ root, write: true }));
  await harness.use(shellTools({ root }));
  const checkpoints = withCheckpoints ? await openCheckpoints({ root, dir: join(root, '..', `${root.split('/').at(-1)}.checkpoints`), session, shell: true }) : undefined;
  if (checkpoints !== undefined) await harness.use(checkpoints.plugin);
  return {
    root,
    harness,
    session,
    checkpoints,
    close: async () => {
      await harness.close();
      await checkpoints?.close();
      await session.close();
      await rm(root, { recursive: true, force: true });
      if (checkpoints !== undefined) await rm(join(root, '..', `${root.split('/').at(-1)}.checkpoints`), { recursive: true, force: true });
    },
  };
}

/**
 * What checkpoints add, in a workspace of 10,000 files: to a `write_file` that is the first change of
 * its file in its turn (the prior state is read and kept, the state after recorded), and to a
 * `run_command` (one stat walk of the workspace after it; a command that changes nothing copies nothing).
 * Each iteration is a new turn (a user message) in both rigs. Targets (issue 34): at most 10% on a
 * write, at most 50 ms on a command. The first command of a process, which copies every file once,
 * is reported apart.
 */
export async function checkpointsBench(options: { quick: boolean }): Promise<void> {
  let plain: Rig | undefined;
  let kept: Rig | undefined;
  try {
    try {
      plain = await rig(false);
      kept = await rig(true);
    } catch (error) {
      console.log(`\nCheckpoints: skipped, the shell sandbox is not available here (${(error as Error).message.slice(0, 200)})`);
      return;
    }
    let id = 0;
    const call = async (r: Rig, name: string, args: Record<string, unknown>) => {
      const result = await r.harness.executeToolCall({ id: `bench-${++id}`, name, arguments: args });
      if (!result.ok) throw new Error(`${name} failed: ${result.content}`);
    };
    const turn = (r: Rig) => r.session.append({ type: 'message', message: { role: 'user', content: `turn ${id}` } });
    const write = (r: Rig) => async (iterations: number) => {
      for (let i = 0; i < iterations; i += 1) {
        await turn(r);
        await call(r, 'write_file', { path: `pkg-${i % 100}/new-${id}.ts`, content: `export const x = ${id};\n` });
      }
    };
    const command = (r: Rig) => async (iterations: number) => {
      for (let i = 0; i < iterations; i += 1) {
        await turn(r);
        await call(r, 'run_command', { command: 'true' });
      }
    };
    const first = performance.now();
    await command(kept)(1);
    const firstMs = performance.now() - first;
    const rounds = { iterations: options.quick ? 3 : 10, rounds: options.quick ? 3 : 7, warmupRounds: 1 };
    const writes = await interleavedMedians({ 'write_file': write(plain), 'write_file + checkpoints': write(kept) }, rounds);
    const commands = await interleavedMedians({ 'run_command `true`': command(plain), 'run_command `true` + checkpoints (shell)': command(kept) }, rounds);
    const w0 = writes['write_file']!;
    const w1 = writes['write_file + checkpoints']!;
    const c0 = commands['run_command `true`']!;
    const c1 = commands['run_command `true` + checkpoints (shell)']!;
    console.log(`\nCheckpoints: a workspace of ${FILES} files (median of interleaved rounds; each call the first change of its turn)`);
    printTable(
      ['case', 'ms/call', 'added'],
      [
        ['write_file', (w0 / 1e6).toFixed(2), ''],
        ['write_file + checkpoints', (w1 / 1e6).toFixed(2), `${(((w1 - w0) / w0) * 100).toFixed(1)}% (target <= 10%)`],
        ['run_command `true`', (c0 / 1e6).toFixed(2), ''],
        ['run_command `true` + checkpoints (shell)', (c1 / 1e6).toFixed(2), `${((c1 - c0) / 1e6).toFixed(1)} ms (target <= 50 ms)`],
        ['the first command of a process (copies every file once)', firstMs.toFixed(0), ''],
      ],
    );
  } finally {
    await plain?.close();
    await kept?.close();
  }
}
