// /rewind in a real terminal (tmux), and weir rewind headless: two turns that each create a file, the
// list of turns with the files they changed, a rewind to turn 1 (the file of turn 2 gone, the
// conversation cut), the redo entry, then `weir rewind <id> --turn 0` and `--redo` from the shell.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';
import { startTerminal, tmuxMissing, type Terminal } from './support/terminal.js';

if (tmuxMissing !== undefined) console.warn(`[cli] the /rewind terminal test is skipped: ${tmuxMissing}`);

let server: ModelServer;
let sandbox: Sandbox | undefined;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
  sandbox?.remove();
  sandbox = undefined;
});

describe.skipIf(tmuxMissing !== undefined)('rewind', () => {
  it('/rewind lists the turns, goes back to turn 1 and offers the redo; weir rewind does the same headless', async () => {
    sandbox = makeSandbox();
    const s = { ...sandbox, env: { ...sandbox.env, OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' } };
    const t = (terminal = startTerminal(['--mode', 'auto'], s.workspace, s.env));
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await t.type('call write_file {"path":"first.txt","content":"one\\n"}');
    await t.waitFor(/write_file said: Created first\.txt[\s\S]*^> /m);
    await t.type('call write_file {"path":"second.txt","content":"two\\n"}');
    await t.waitFor(/write_file said: Created second\.txt[\s\S]*^> /m);
    expect(existsSync(join(s.workspace, 'second.txt'))).toBe(true);

    await t.type('/rewind');
    const listed = await t.waitFor(/Rewind to the end of which turn\?/);
    expect(listed).toMatch(/^ {2}0 {2}before the first turn$/m);
    expect(listed).toMatch(/^ {2}1 {2}\d\d:\d\d:\d\d {2}call write_file \{"path":"first\.txt".*\(changed first\.txt\)$/m);
    expect(listed).toMatch(/^ {2}2 {2}\d\d:\d\d:\d\d {2}call write_file \{"path":"second\.txt".*\(changed second\.txt\)$/m);
    expect(listed).not.toMatch(/redo:/);
    await t.type('1');
    await t.waitFor(/\[rewind\] back to the end of turn 1: 1 file set back, the conversation cut\n {2}second\.txt\n> /);
    expect(existsSync(join(s.workspace, 'second.txt'))).toBe(false);
    expect(readFileSync(join(s.workspace, 'first.txt'), 'utf8')).toBe('one\n');

    await t.type('/rewind');
    const again = await t.waitFor(/Rewind to the end of which turn\?/);
    expect(again).toMatch(/^ {2}r {2}redo: take the last rewind back$/m);
    await t.type('r');
    await t.waitFor(/\[redo\] back to the state before the rewind: 1 file set back, the conversation put back\n {2}second\.txt\n> /);
    expect(readFileSync(join(s.workspace, 'second.txt'), 'utf8')).toBe('two\n');
    await t.type('/exit');
    const id = /\[session\] (\S+) saved/.exec(await t.waitFor(/WEIR EXITED 0/))?.[1];
    expect(id).toBeDefined();
    t.close();

    // Headless, in a new process: back to before the first turn, a user's edit reported and left, then the redo.
    writeFileSync(join(s.workspace, 'first.txt'), 'edited by the user\n');
    const rewound = await runWeir(['rewind', id!, '--turn', '0'], { cwd: s.workspace, env: s.env });
    expect(rewound.stdout).toContain('[rewind] back to the end of turn 0: 1 file set back, the conversation cut\n  second.txt\n  left first.txt: it changed since weir last wrote it');
    expect(rewound.code).toBe(1);
    expect(readFileSync(join(s.workspace, 'first.txt'), 'utf8')).toBe('edited by the user\n');
    expect(existsSync(join(s.workspace, 'second.txt'))).toBe(false);
    const redone = await runWeir(['rewind', id!, '--redo'], { cwd: s.workspace, env: s.env });
    expect(redone.stdout).toContain('[redo] back to the state before the rewind: 1 file set back, the conversation put back\n  second.txt');
    expect(redone.code).toBe(0);
    expect(readFileSync(join(s.workspace, 'second.txt'), 'utf8')).toBe('two\n');
    const bad = await runWeir(['rewind', id!], { cwd: s.workspace, env: s.env });
    expect([bad.code, bad.stderr]).toEqual([2, '[error] weir rewind needs --turn N (with --files or --conversation to rewind only those), or --redo alone.\n']);
  }, 120_000);
});
