import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, defineTool, type Harness, type Logger, type Session } from '@weir/core';
import { createFileSessionStore } from '@weir/session';
import { fsTools, openCheckpoints, type Checkpoints } from '../src/index.js';

let base: string;
let root: string;
let outside: string;
let harness: Harness;
let session: Session;
let checkpoints: Checkpoints;
let call = 0;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'weir-checkpoints-')));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'outside\n');
  session = await createFileSessionStore(join(base, 'sessions')).create({ id: 's1' });
  checkpoints = await openCheckpoints({ root, dir: join(base, 'sessions', 's1.checkpoints'), session });
  harness = createHarness();
  await harness.use(fsTools({ root, write: true }));
  await harness.use(checkpoints.plugin);
});
afterEach(async () => {
  await harness.close();
  await checkpoints.close();
  await session.close();
  await rm(base, { recursive: true, force: true });
});

async function turn(prompt: string): Promise<void> {
  await session.append({ type: 'message', message: { role: 'user', content: prompt } });
  await session.append({ type: 'message', message: { role: 'assistant', content: 'ok' } });
}
async function endTurn(): Promise<void> {
  await session.append({ type: 'turn_end', reason: 'stop' }, { sync: true });
}
async function tool(name: string, args: Record<string, unknown>) {
  const result = await harness.executeToolCall({ id: `c${++call}`, name, arguments: args });
  if (!result.ok) throw new Error(`${name} failed: ${result.content}`);
  return result;
}
const read = (path: string) => readFile(join(root, path), 'utf8');
const exists = (path: string) => lstat(join(root, path)).then(() => true, () => false);

describe('checkpoints of the file tools', () => {
  it('keeps a file changed five times in a turn once, and rewinds files and conversation to an earlier turn, then redoes', async () => {
    await turn('make a');
    await tool('write_file', { path: 'a.txt', content: 'one\n' });
    await endTurn();

    await turn('edit a five times, make b');
    await tool('read_file', { path: 'a.txt' });
    for (const n of [2, 3, 4, 5, 6]) await tool('edit_file', { path: 'a.txt', old_string: String(n === 2 ? 'one' : n - 1), new_string: String(n) });
    await tool('write_file', { path: 'dir/b.txt', content: 'bee\n' });
    await endTurn();
    expect(await read('a.txt')).toBe('6\n');

    const log = await readFile(join(base, 'sessions', 's1.checkpoints', 'checkpoints.jsonl'), 'utf8');
    const priors = log.split('\n').filter((line) => line.includes('"t":"prior"'));
    expect(priors).toHaveLength(3); // a (absent) in turn 1; a and dir/b in turn 2
    expect(checkpoints.turns().map((t) => [t.turn, t.prompt, t.files])).toEqual([
      [1, 'make a', ['a.txt']],
      [2, 'edit a five times, make b', ['a.txt', 'dir/b.txt']],
    ]);

    const report = await checkpoints.rewind({ toTurn: 1 });
    expect(report).toMatchObject({ kind: 'rewind', toTurn: 1, files: ['a.txt', 'dir/b.txt'], conflicts: [], conversation: true });
    expect(await read('a.txt')).toBe('one\n');
    expect(await exists('dir/b.txt')).toBe(false);
    expect(session.history().messages.map((m) => m.content)).toEqual(['make a', 'ok']);
    expect(checkpoints.canRedo()).toBe(true);

    const redo = await checkpoints.redo();
    expect(redo).toMatchObject({ kind: 'redo', files: ['a.txt', 'dir/b.txt'], conflicts: [], conversation: true });
    expect(await read('a.txt')).toBe('6\n');
    expect(await read('dir/b.txt')).toBe('bee\n');
    expect(session.history().messages).toHaveLength(4);
    expect(checkpoints.canRedo()).toBe(false);
    await expect(checkpoints.redo()).rejects.toMatchObject({ code: 'NOTHING_TO_REDO' });
  });

  it('restores a mode, reports a file changed by someone else and leaves it unless forced', async () => {
    await writeFile(join(root, 'run.sh'), 'echo one\n');
    await chmod(join(root, 'run.sh'), 0o755);
    await writeFile(join(root, 'notes.txt'), 'mine\n');
    await turn('change both');
    await tool('read_file', { path: 'run.sh' });
    await tool('read_file', { path: 'notes.txt' });
    await tool('write_file', { path: 'run.sh', content: 'echo two\n' });
    await tool('write_file', { path: 'notes.txt', content: 'agent\n' });
    await chmod(join(root, 'run.sh'), 0o600);
    await endTurn();
    // The user edits notes.txt after the turn.
    await writeFile(join(root, 'notes.txt'), 'user edit\n');
    const report = await checkpoints.rewind({ toTurn: 0, scope: 'files' });
    expect(report.files).toEqual([]);
    expect(report.conflicts.map((c) => c.path)).toEqual(['notes.txt', 'run.sh']);
    expect(await read('notes.txt')).toBe('user edit\n');
    expect(report.conversation).toBe(false);

    const forced = await checkpoints.rewind({ toTurn: 0, scope: 'files', force: true });
    expect(forced.files).toEqual(['notes.txt', 'run.sh']);
    expect(await read('notes.txt')).toBe('mine\n');
    expect(await read('run.sh')).toBe('echo one\n');
    expect((await lstat(join(root, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(session.history().messages).toHaveLength(2); // files only: the conversation stays
  });

  it('never follows a link out of the root when it restores', async () => {
    await mkdir(join(root, 'sub'));
    await turn('make sub/secret.txt');
    await tool('write_file', { path: 'sub/secret.txt', content: 'inside\n' });
    await endTurn();
    // Someone swaps the directory for a link to outside: the restore must not reach through it.
    await rm(join(root, 'sub'), { recursive: true });
    await symlink(outside, join(root, 'sub'));
    const report = await checkpoints.rewind({ toTurn: 0, force: true });
    expect(report.files).toEqual([]);
    expect(report.conflicts.map((c) => c.path)).toEqual(['sub/secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses a turn the session does not have, and a bad scope, changing nothing', async () => {
    await turn('one');
    await endTurn();
    await expect(checkpoints.rewind({ toTurn: 2 })).rejects.toMatchObject({ code: 'NO_SUCH_TURN' });
    await expect(checkpoints.rewind({ toTurn: 1.5 })).rejects.toMatchObject({ code: 'NO_SUCH_TURN' });
    await expect(checkpoints.rewind({ toTurn: 0, scope: 'all' as never })).rejects.toMatchObject({ code: 'INVALID_REWIND' });
    expect(session.records().some((r) => r.type === 'rewind')).toBe(false);
  });
});

describe('checkpoints of commands (the shell snapshot)', () => {
  it('puts back what a command changed, created and deleted; ignored files and files over the bound stay out, and the bound is reported', async () => {
    await writeFile(join(root, '.gitignore'), 'build/\n');
    await mkdir(join(root, 'build'));
    await writeFile(join(root, 'build', 'out.js'), 'old build\n');
    await writeFile(join(root, 'small.txt'), 'small\n');
    await writeFile(join(root, 'gone.txt'), 'gone\n');
    await writeFile(join(root, 'big.txt'), 'x'.repeat(100));
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (_: unknown, message: string) => warnings.push(message), child: () => logger } as unknown as Logger;
    const shelled = await openCheckpoints({ root, dir: join(base, 'sessions', 's1.shell'), session, shell: { maxFileBytes: 50 }, logger });
    const h = createHarness();
    // A command that writes by itself, as a shell command does: no files declared, not read-only.
    h.tools.register(
      defineTool({
        name: 'fake_command',
        description: 'Changes files like a command.',
        tier: 'dangerous',
        parameters: { type: 'object', properties: {} },
        execute: async () => {
          await writeFile(join(root, 'small.txt'), 'changed by the command\n');
          await writeFile(join(root, 'made.txt'), 'made\n');
          await rm(join(root, 'gone.txt'));
          await writeFile(join(root, 'big.txt'), 'y'.repeat(100));
          await writeFile(join(root, 'build', 'out.js'), 'new build\n');
          return 'done';
        },
      }),
    );
    await h.use(shelled.plugin);
    await turn('run the command');
    const result = await h.executeToolCall({ id: 'cmd', name: 'fake_command', arguments: {} });
    expect(result.ok).toBe(true);
    await endTurn();
    expect(shelled.turns()[0]!.files).toEqual(['gone.txt', 'made.txt', 'small.txt']);
    expect(warnings.some((w) => w.includes('over 50 bytes'))).toBe(true);
    expect(warnings.some((w) => w.includes('big.txt'))).toBe(true);

    const report = await shelled.rewind({ toTurn: 0, scope: 'files' });
    expect(report.files).toEqual(['gone.txt', 'made.txt', 'small.txt']);
    expect(await read('small.txt')).toBe('small\n');
    expect(await read('gone.txt')).toBe('gone\n');
    expect(await exists('made.txt')).toBe(false);
    expect(await read('big.txt')).toBe('y'.repeat(100));
    expect(await read('build/out.js')).toBe('new build\n');
    await h.close();
    await shelled.close();
  });

  it('takes one walk per command: a change someone else made before a command is not the command\'s, and what write_file wrote between two commands is their prior', async () => {
    await writeFile(join(root, 'user.txt'), 'user\n');
    await writeFile(join(root, 'cmd.txt'), 'cmd\n');
    // Its folder inside the workspace: weir's own writes there are never a command's.
    const shelled = await openCheckpoints({ root, dir: join(root, 'checkpoints-inside'), session, shell: true });
    const h = createHarness();
    await h.use(fsTools({ root, write: true }));
    let change: () => Promise<void> = async () => undefined;
    h.tools.register(defineTool({ name: 'fake_command', description: 'Changes files like a command.', tier: 'dangerous', parameters: { type: 'object', properties: {} }, execute: async () => (await change(), 'done') }));
    await h.use(shelled.plugin);
    const run = async (name: string, args: Record<string, unknown>) => expect((await h.executeToolCall({ id: `c${++call}`, name, arguments: args })).ok).toBe(true);

    await turn('turn 1');
    await run('fake_command', {});
    await run('write_file', { path: 'tool.txt', content: 'written by write_file\n' });
    await endTurn();
    // Someone else, between the turns, well before the next command (past the margin of change times).
    await writeFile(join(root, 'user.txt'), 'edited by the user\n');
    await new Promise((resolve) => setTimeout(resolve, 120));
    await turn('turn 2');
    change = async () => {
      await writeFile(join(root, 'cmd.txt'), 'changed by the command\n');
      await writeFile(join(root, 'tool.txt'), 'changed by the command\n');
    };
    await run('fake_command', {});
    await endTurn();
    expect(shelled.turns().map((t) => t.files)).toEqual([['tool.txt'], ['cmd.txt', 'tool.txt']]);

    const report = await shelled.rewind({ toTurn: 1, scope: 'files' });
    expect(report.files).toEqual(['cmd.txt', 'tool.txt']);
    expect(await read('tool.txt')).toBe('written by write_file\n');
    expect(await read('cmd.txt')).toBe('cmd\n');
    expect(await read('user.txt')).toBe('edited by the user\n');
    await h.close();
    await shelled.close();
  });
});
