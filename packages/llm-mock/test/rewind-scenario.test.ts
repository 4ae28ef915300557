import { execFile, spawn } from 'node:child_process';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createHarness, sessionTurns } from '@weir/core';
import { createScriptedModel, type ScriptedResponse } from '@weir/llm-mock';
import { createFileSessionStore } from '@weir/session';
import { fsTools, openCheckpoints, type RewindReport } from '@weir/tools-fs';
import { shellTools } from '@weir/tools-shell';
import { treeHash } from './fixtures/tree-hash.js';

// Issue 34's scenario: three agent turns change five files (one created then edited in the same turn,
// one deleted and one renamed by a command, one binary and one more written by run_command under
// bubblewrap); a rewind to turn 1 gives the tree recorded after turn 1, a redo the tree after turn 3;
// a user's edit is reported and left; a SIGKILL at every step of the rewind is finished by the next
// open; the rewinds run in new processes (a resumed session). Runs as the CI user (root: the
// workspace is given to the sandbox user, as the tools-shell tests do).

const exec = promisify(execFile);
const SESSION = 'scenario';
const dirs: string[] = [];
let template: string;
let child: string;
let afterTurn1: string;
let afterTurn3: string;

const calls = (...toolCalls: ScriptedResponse['toolCalls'][]) => toolCalls.map((c) => ({ toolCalls: c }) as ScriptedResponse);

async function fresh(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A copy of the state after turn 3 (workspace and sessions, owners and times kept). */
async function copyOfTemplate(): Promise<{ root: string; sessions: string }> {
  const target = await fresh('weir-rewind-case-');
  await exec('cp', ['-a', `${template}/.`, target]);
  return { root: join(target, 'ws'), sessions: join(target, 'sessions') };
}

function runChild(sessions: string, root: string, action: 'rewind' | 'redo', killAt: number): Promise<{ killed: boolean; report?: RewindReport }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, sessions, SESSION, root, action, '1', String(killAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    proc.on('error', reject);
    proc.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: true });
      else if (code === 0) resolve({ killed: false, report: JSON.parse(out) as RewindReport });
      else reject(new Error(`the rewind child failed (${code}): ${err}`));
    });
  });
}

/** Opens the session in this process: recovery of an interrupted rewind happens here. */
async function reopen(sessions: string, root: string) {
  const session = await createFileSessionStore(sessions).open(SESSION);
  const checkpoints = await openCheckpoints({ root, dir: join(sessions, `${SESSION}.checkpoints`), session });
  return { session, checkpoints, close: async () => (await checkpoints.close(), await session.close()) };
}

beforeAll(async () => {
  const build = await fresh('weir-rewind-child-');
  child = join(build, 'rewind-child.mjs');
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild') as { build(options: object): Promise<unknown> };
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL('./fixtures/rewind-child.ts', import.meta.url))],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    conditions: ['@weir/source'],
    banner: { js: "import { createRequire as weirCreateRequire } from 'node:module'; const require = weirCreateRequire(import.meta.url);" },
  });

  template = await fresh('weir-rewind-template-');
  const root = join(template, 'ws');
  const sessions = join(template, 'sessions');
  await exec('mkdir', ['-p', root, sessions]);
  await writeFile(join(root, 'notes.txt'), 'draft\n');
  await writeFile(join(root, 'old.txt'), 'to be deleted\n');
  await writeFile(join(root, 'move-me.txt'), 'to be renamed\n');
  await writeFile(join(root, 'data.bin'), Buffer.from([0x89, 0x50, 0x00, 0xff, 0x10]));
  if (process.getuid?.() === 0) {
    // The sandbox user runs the commands: it must reach and change the workspace.
    await chown(template, 65534, 65534);
    await exec('chown', ['-R', '65534:65534', root]);
  }

  const store = createFileSessionStore(sessions);
  const session = await store.create({ id: SESSION });
  const checkpoints = await openCheckpoints({ root, dir: join(sessions, `${SESSION}.checkpoints`), session, shell: true });
  const harness = createHarness();
  await harness.use(fsTools({ root, write: true }));
  await harness.use(shellTools({ root }));
  await harness.use(checkpoints.plugin);
  const model = createScriptedModel([
    ...calls([{ id: 'r1', name: 'read_file', arguments: { path: 'notes.txt' } }], [{ id: 'e1', name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'draft', new_string: 'final' } }]),
    { text: 'Turn 1 done.' },
    ...calls(
      [{ id: 'w2', name: 'write_file', arguments: { path: 'new.txt', content: 'v1\n' } }],
      [{ id: 'e2', name: 'edit_file', arguments: { path: 'new.txt', old_string: 'v1', new_string: 'v2' } }],
      [{ id: 'c2', name: 'run_command', arguments: { command: 'rm old.txt && mv move-me.txt moved.txt' } }],
    ),
    { text: 'Turn 2 done.' },
    ...calls([{ id: 'c3', name: 'run_command', arguments: { command: "printf '\\000\\001\\377bin' > data.bin && echo made > cmd.txt" } }]),
    { text: 'Turn 3 done.' },
  ]);
  const agent = createAgent({ model, harness, session });
  await agent.turn('Finish the notes.');
  afterTurn1 = await treeHash(root);
  await agent.turn('Add new.txt, drop old.txt, rename move-me.txt.');
  await agent.turn('Rewrite data.bin and make cmd.txt.');
  afterTurn3 = await treeHash(root);
  model.assertAllUsed();
  expect(await readFile(join(root, 'cmd.txt'), 'utf8')).toBe('made\n');
  expect(checkpoints.turns().map((t) => t.files)).toEqual([['notes.txt'], ['move-me.txt', 'moved.txt', 'new.txt', 'old.txt'], ['cmd.txt', 'data.bin']]);
  await harness.close();
  await checkpoints.close();
  await session.close();
});

afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('rewind of a three-turn session', () => {
  it('rewinds to turn 1 in a new process (the tree recorded after turn 1, the conversation cut), and redoes to the tree after turn 3', async () => {
    const { root, sessions } = await copyOfTemplate();
    const rewound = await runChild(sessions, root, 'rewind', -1);
    expect(rewound.report).toMatchObject({ files: ['cmd.txt', 'data.bin', 'move-me.txt', 'moved.txt', 'new.txt', 'old.txt'], conflicts: [], conversation: true });
    expect(await treeHash(root)).toBe(afterTurn1);
    const records = await createFileSessionStore(sessions).read(SESSION);
    expect(sessionTurns(records).map((t) => t.prompt)).toEqual(['Finish the notes.']);

    const redone = await runChild(sessions, root, 'redo', -1);
    expect(redone.report).toMatchObject({ kind: 'redo', conflicts: [], conversation: true });
    expect(await treeHash(root)).toBe(afterTurn3);
    expect(sessionTurns(await createFileSessionStore(sessions).read(SESSION))).toHaveLength(3);
  });

  it('reports a file the user edited after the turns and leaves it; the others are rewound', async () => {
    const { root, sessions } = await copyOfTemplate();
    await writeFile(join(root, 'new.txt'), 'the user wrote this\n');
    const { report } = await runChild(sessions, root, 'rewind', -1);
    expect(report!.conflicts.map((c) => c.path)).toEqual(['new.txt']);
    expect(report!.files).toEqual(['cmd.txt', 'data.bin', 'move-me.txt', 'moved.txt', 'old.txt']);
    expect(await readFile(join(root, 'new.txt'), 'utf8')).toBe('the user wrote this\n');
    expect(await readFile(join(root, 'old.txt'), 'utf8')).toBe('to be deleted\n');
  });

  // Steps: 0 before the journal, 1-6 the six files, 7 the conversation record, 8 the log line, 9 the journal's removal.
  it.each(Array.from({ length: 10 }, (_, step) => step))('finishes a rewind killed before step %i when the session next opens', async (step) => {
    const { root, sessions } = await copyOfTemplate();
    const run = await runChild(sessions, root, 'rewind', step);
    expect(run.killed).toBe(true);
    const opened = await reopen(sessions, root);
    try {
      if (step === 0) {
        // Killed before its journal existed: nothing was touched, nothing is left to finish.
        expect(opened.checkpoints.recovered).toBeUndefined();
        expect(await treeHash(root)).toBe(afterTurn3);
        expect(sessionTurns(opened.session.records())).toHaveLength(3);
      } else {
        expect(opened.checkpoints.recovered?.conflicts ?? []).toEqual([]);
        expect(await treeHash(root)).toBe(afterTurn1);
        expect(sessionTurns(opened.session.records()).map((t) => t.prompt)).toEqual(['Finish the notes.']);
        expect(opened.session.records().filter((r) => r.type === 'rewind')).toHaveLength(1);
      }
      // Either way the session goes on: a redo (or a rewind) from here lands on a whole tree.
      const next = step === 0 ? await opened.checkpoints.rewind({ toTurn: 1 }) : await opened.checkpoints.redo();
      expect(next.conflicts).toEqual([]);
      expect(await treeHash(root)).toBe(step === 0 ? afterTurn1 : afterTurn3);
    } finally {
      await opened.close();
    }
  });
});
