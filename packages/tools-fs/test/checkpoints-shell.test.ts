import { lstat, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, defineTool, type Harness, type Session } from '@weir/core';
import { createFileSessionStore } from '@weir/session';
import { openCheckpoints, type Checkpoints } from '../src/index.js';

// The shell snapshot's stamps, background baseline, resumed index and listing memory
// (src/checkpoints/command-snapshotter.ts, snapshot-walker.ts, shell-index.ts).

let base: string;
let root: string;
let dir: string;
let session: Session;
const opened: { harness: Harness; checkpoints: Checkpoints }[] = [];
let call = 0;
/** What the fake command does when it runs. */
let change: () => Promise<void> = async () => undefined;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'weir-checkpoints-shell-')));
  root = join(base, 'ws');
  dir = join(base, 'sessions', 's1.checkpoints');
  await mkdir(root);
  session = await createFileSessionStore(join(base, 'sessions')).create({ id: 's1' });
  change = async () => undefined;
});
afterEach(async () => {
  for (const { harness, checkpoints } of opened.splice(0)) {
    await harness.close();
    await checkpoints.close();
  }
  await session.close();
  await rm(base, { recursive: true, force: true });
});

/** A process of the session: checkpoints with the shell snapshot, and a command that writes by itself (no files declared, not read-only). */
async function open(): Promise<Checkpoints> {
  const checkpoints = await openCheckpoints({ root, dir, session, shell: true });
  const harness = createHarness();
  harness.tools.register(defineTool({ name: 'fake_command', description: 'Changes files like a command.', tier: 'dangerous', parameters: { type: 'object', properties: {} }, execute: async () => (await change(), 'done') }));
  await harness.use(checkpoints.plugin);
  opened.push({ harness, checkpoints });
  return checkpoints;
}
async function command(): Promise<void> {
  const { harness } = opened.at(-1)!;
  await session.append({ type: 'message', message: { role: 'user', content: `turn ${++call}` } });
  const result = await harness.executeToolCall({ id: `c${call}`, name: 'fake_command', arguments: {} });
  expect(result.ok).toBe(true);
  await session.append({ type: 'turn_end', reason: 'stop' }, { sync: true });
}
async function closeLast(): Promise<void> {
  const { harness, checkpoints } = opened.pop()!;
  await harness.close();
  await checkpoints.close();
}
const read = (path: string) => readFile(join(root, path), 'utf8');
const exists = (path: string) => lstat(join(root, path)).then(() => true, () => false);
/** Past the margin within which a change time counts as the next command's (and a read as racy). */
const pastTheMargin = () => new Promise((resolve) => setTimeout(resolve, 120));
/** A whole second, which `utimes` sets exactly (a time with nanoseconds would not be set back exactly). */
const LONG_AGO = new Date('2020-01-01T00:00:00Z');
/** Writes `bytes` (and gives the file a modification time `utimes` can set back exactly). */
async function writeDated(path: string, bytes: string): Promise<void> {
  await writeFile(join(root, path), bytes);
  await utimes(join(root, path), LONG_AGO, LONG_AGO);
}
/** Writes `bytes` in place and sets the modification time back: only the change time tells. */
async function writeKeepingTimes(path: string, bytes: string): Promise<void> {
  const before = await stat(join(root, path));
  await writeFile(join(root, path), bytes);
  await utimes(join(root, path), before.atime, before.mtime);
  expect((await stat(join(root, path))).mtimeMs).toBe(before.mtimeMs);
}

describe('the shell snapshot', () => {
  it('catches a change that keeps the size and the modification time (by the change time), and leaves out a file the command only touched', async () => {
    await writeDated('same.txt', 'aaaa\n');
    await writeFile(join(root, 'touched.txt'), 'touched\n');
    await pastTheMargin();
    const checkpoints = await open();
    await checkpoints.baselineTaken();
    await command(); // the first command: the baseline is the state before it
    change = async () => {
      await writeKeepingTimes('same.txt', 'bbbb\n');
      const now = new Date();
      await utimes(join(root, 'touched.txt'), now, now);
    };
    await command();
    expect((await stat(join(root, 'same.txt'))).size).toBe(5);
    expect(checkpoints.turns().map((t) => t.files)).toEqual([[], ['same.txt']]);
    const report = await checkpoints.rewind({ toTurn: 1, scope: 'files' });
    expect(report.files).toEqual(['same.txt']);
    expect(await read('same.txt')).toBe('aaaa\n');
  });

  it('gives the first command the state just before it, not the baseline\'s, when someone changed a file after the baseline was taken', async () => {
    await writeFile(join(root, 'a.txt'), 'at the opening\n');
    const checkpoints = await open();
    await checkpoints.baselineTaken();
    await writeFile(join(root, 'a.txt'), 'edited after the baseline\n');
    await pastTheMargin();
    change = async () => writeFile(join(root, 'a.txt'), 'changed by the command\n');
    await command();
    expect(checkpoints.turns()[0]!.files).toEqual(['a.txt']);
    await checkpoints.rewind({ toTurn: 0, scope: 'files' });
    expect(await read('a.txt')).toBe('edited after the baseline\n');
  });

  it('lets a command that comes before the baseline is taken wait for the rest of it: what it changes is rewound', async () => {
    for (let d = 0; d < 10; d += 1) {
      await mkdir(join(root, `d${String(d).padStart(2, '0')}`));
      await Promise.all(Array.from({ length: 50 }, (_, f) => writeFile(join(root, `d${String(d).padStart(2, '0')}`, `f${f}.txt`), `file ${d}/${f}\n`)));
    }
    await pastTheMargin();
    const checkpoints = await open();
    let taken = false;
    void checkpoints.baselineTaken().then(() => (taken = true));
    let takenWhenItRan: boolean | undefined;
    change = async () => {
      takenWhenItRan = taken;
      await writeFile(join(root, 'd09', 'f49.txt'), 'changed by the command\n');
      await rm(join(root, 'd09', 'f48.txt'));
      await writeFile(join(root, 'd00', 'new.txt'), 'made by the command\n');
    };
    const takenWhenCalled = taken;
    await command();
    // The call came before the baseline was taken, and the command ran after all of it (it waited).
    expect(takenWhenCalled).toBe(false);
    expect(takenWhenItRan).toBe(true);
    expect(checkpoints.turns()[0]!.files).toEqual(['d00/new.txt', 'd09/f48.txt', 'd09/f49.txt']);
    await checkpoints.rewind({ toTurn: 0, scope: 'files' });
    expect(await read('d09/f49.txt')).toBe('file 9/49\n');
    expect(await read('d09/f48.txt')).toBe('file 9/48\n');
    expect(await exists('d00/new.txt')).toBe(false);
  });

  it('starts a resumed process from the index the last one left, and still takes again a file changed in between (same size and modification time)', async () => {
    await writeDated('kept.txt', 'first process\n');
    await writeFile(join(root, 'other.txt'), 'other\n');
    await pastTheMargin();
    const first = await open();
    await first.baselineTaken();
    await closeLast();
    expect(JSON.parse(await readFile(join(dir, 'shell-index.json'), 'utf8')).rows.map((row: unknown[]) => row[0]).sort()).toEqual(['kept.txt', 'other.txt']);

    // Between the processes: the same size, the same modification time.
    await writeKeepingTimes('kept.txt', 'second proces\n');
    await pastTheMargin();
    const second = await open();
    await second.baselineTaken();
    change = async () => {
      await writeFile(join(root, 'kept.txt'), 'changed by the command\n');
      await writeFile(join(root, 'other.txt'), 'changed too\n');
    };
    await command();
    await second.rewind({ toTurn: 0, scope: 'files' });
    expect(await read('kept.txt')).toBe('second proces\n');
    expect(await read('other.txt')).toBe('other\n');
  });

  it('reads a file again when the index names a blob the store no longer has', async () => {
    await writeFile(join(root, 'a.txt'), 'kept\n');
    await pastTheMargin();
    await (await open()).baselineTaken();
    await closeLast();
    await rm(join(dir, 'blobs'), { recursive: true });
    const checkpoints = await open();
    change = async () => writeFile(join(root, 'a.txt'), 'changed by the command\n');
    await command();
    const report = await checkpoints.rewind({ toTurn: 0, scope: 'files' });
    expect(report.conflicts).toEqual([]);
    expect(await read('a.txt')).toBe('kept\n');
  });

  it('does not trust an index written in another boot without its blobs synced (a power cut may have cut a blob short)', async () => {
    await writeFile(join(root, 'a.txt'), 'kept\n');
    await pastTheMargin();
    await (await open()).baselineTaken();
    await closeLast();
    const index = JSON.parse(await readFile(join(dir, 'shell-index.json'), 'utf8'));
    expect(index.synced).toBe(false);
    // As a power cut may leave it: the blob's name, not its bytes.
    const hash = index.rows.find((row: unknown[]) => row[0] === 'a.txt')[5];
    await writeFile(join(dir, 'blobs', hash), '');
    await writeFile(join(dir, 'shell-index.json'), JSON.stringify({ ...index, boot: 'another-boot' }));
    const checkpoints = await open();
    change = async () => writeFile(join(root, 'a.txt'), 'changed by the command\n');
    await command();
    const report = await checkpoints.rewind({ toTurn: 0, scope: 'files' });
    expect(report.conflicts).toEqual([]);
    expect(await read('a.txt')).toBe('kept\n');
  });

  it('sees a change of the ignore rules even when no directory and no included file changed: a file they now include is watched from then on', async () => {
    // It ignores itself: only its stamp among the directory's ignore files tells it changed.
    await writeDated('.gitignore', 'build/\n*.log\n.gitignore\n');
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'sub', 'x.log'), 'old log\n');
    await mkdir(join(root, 'build'));
    await writeFile(join(root, 'build', 'out.js'), 'old build\n');
    // One file the walk includes: its change time tells the file system keeps fractions of a second (the narrow margin).
    await writeFile(join(root, 'a.txt'), 'a\n');
    await pastTheMargin();
    const checkpoints = await open();
    await command();
    // Rewritten in place: the root's own stamp stays as it was.
    change = async () => writeKeepingTimes('.gitignore', 'dist/\n*.tmp\n.gitignore\n\n');
    await command();
    // `sub` and its files are as they were: only the rules it inherits changed.
    change = async () => {
      await writeFile(join(root, 'build', 'out.js'), 'new build\n');
      await writeFile(join(root, 'sub', 'x.log'), 'new log\n');
    };
    await command();
    expect(checkpoints.turns().map((t) => t.files)).toEqual([[], [], ['build/out.js', 'sub/x.log']]);
    await checkpoints.rewind({ toTurn: 2, scope: 'files' });
    expect(await read('build/out.js')).toBe('old build\n');
    expect(await read('sub/x.log')).toBe('old log\n');
  });

  it('never follows a directory a command replaced with a link out of the root', async () => {
    const outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'a.txt'), 'outside\n');
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'sub', 'a.txt'), 'inside\n');
    await pastTheMargin();
    const checkpoints = await open();
    await command();
    change = async () => {
      await rm(join(root, 'sub'), { recursive: true });
      await symlink(outside, join(root, 'sub'));
    };
    await command();
    change = async () => writeFile(join(outside, 'a.txt'), 'changed outside\n');
    await command();
    expect(checkpoints.turns().map((t) => t.files)).toEqual([[], ['sub/a.txt'], []]);
    const report = await checkpoints.rewind({ toTurn: 1, scope: 'files' });
    expect(report.conflicts.map((c) => c.path)).toEqual(['sub/a.txt']);
    expect(await readFile(join(outside, 'a.txt'), 'utf8')).toBe('changed outside\n');
  });
});
