import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCall, ToolResult } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertNoMarker, createFsHarness, type FsHarness } from './helpers/fs-harness.js';
import { createSentinelFixture, type SentinelFixture } from './helpers/sentinel-fixture.js';

/**
 * Catalogue rows 26 and 27 as a real race: another process swaps a file and a directory inside
 * the workspace for links to outside targets, as fast as it can, while the tools read, list,
 * search and write them through a real harness. Bounded in time (a few seconds) but thousands of
 * calls. No outside byte or name may ever come back, and nothing outside may ever be written.
 */

const RACE_MS = Number(process.env.WEIR_RACE_MS ?? 3000);
// A floor for slow CI machines; a developer laptop makes several thousand calls in RACE_MS. On a
// loaded machine the race goes on past RACE_MS until this many calls ran, up to MAX_RACE_MS.
const MIN_CALLS = 1000;
const MAX_RACE_MS = 40_000;

// The attacker, run by `node -e`: swaps each name between the real thing and a link, with
// renames so each state appears atomically. Every step may fail (the tools write too): ignored.
const ATTACKER = String.raw`
const fs = require('node:fs');
const [root, base, home, ms, stop] = process.argv.slice(1);
const end = Date.now() + Number(ms);
const quiet = (fn) => { try { fn(); } catch {} };
const swapFile = (name, target, content) => {
  quiet(() => fs.symlinkSync(target, root + '/' + name + '.l'));
  quiet(() => fs.renameSync(root + '/' + name + '.l', root + '/' + name));
  quiet(() => fs.writeFileSync(root + '/' + name + '.f', content));
  quiet(() => fs.renameSync(root + '/' + name + '.f', root + '/' + name));
};
const swapDirectory = (name, target) => {
  quiet(() => fs.renameSync(root + '/' + name, root + '/' + name + '.d'));
  quiet(() => fs.symlinkSync(target, root + '/' + name));
  quiet(() => fs.unlinkSync(root + '/' + name));
  quiet(() => fs.renameSync(root + '/' + name + '.d', root + '/' + name));
};
let rounds = 0;
process.stdout.write('ready ');
while (Date.now() < end && !fs.existsSync(stop)) {
  swapFile('data.txt', base + '/etc/passwd', 'INSIDE-DATA\n');
  swapDirectory('sub', base + '/etc');
  swapFile('target.txt', home + '/.bashrc', 'INSIDE-TARGET\n');
  swapDirectory('wdir', home + '/.config');
  rounds += 1;
}
process.stdout.write(String(rounds));
`;

interface Attacker {
  /** Its swap rounds, once it stopped. */
  readonly rounds: Promise<number>;
  /** True once its loop has begun: on a loaded machine a process can take seconds to start. */
  readonly started: () => boolean;
}

function startAttacker(fx: SentinelFixture, stop: string): Attacker {
  let output = '';
  const rounds = new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ATTACKER, fx.root, fx.base, fx.home, String(MAX_RACE_MS), stop], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    // 'close', not 'exit': the exit can be heard before the last of standard output is read, and the
    // rounds came back as 0 on a loaded machine.
    child.on('close', (code) => (code === 0 ? resolve(Number(output.replace('ready ', ''))) : reject(new Error(`attacker exited with ${code}`))));
  });
  return { rounds, started: () => output.startsWith('ready ') };
}

interface RaceOutcome {
  readonly results: ToolResult[];
  readonly rounds: number;
}

async function race(h: FsHarness, fx: SentinelFixture, calls: readonly Omit<ToolCall, 'id'>[]): Promise<RaceOutcome> {
  // The stop file sits in its own temporary directory: the fixture checks nothing appears outside the workspace.
  const stopDirectory = await mkdtemp(join(tmpdir(), 'weir-race-stop-'));
  const stop = join(stopDirectory, 'stop');
  const attacker = startAttacker(fx, stop);
  const results: ToolResult[] = [];
  let started: number | undefined;
  let done = false;
  void attacker.rounds.finally(() => (done = true)).catch(() => undefined);
  // The race's time counts from the attacker's first round, not from its spawn.
  const timer = setInterval(() => {
    if (started === undefined) started = attacker.started() ? Date.now() : undefined;
    else if (Date.now() - started >= RACE_MS && results.length >= MIN_CALLS) void writeFile(stop, '').catch(() => undefined);
  }, 50);
  let id = 0;
  // Several callers at once, so calls interleave with each other as well as with the attacker.
  const caller = async () => {
    while (!done) {
      const batch = calls.map((call) => ({ ...call, id: `race-${++id}` }));
      results.push(...(await h.harness.executeToolCalls(batch, { concurrency: batch.length })));
    }
  };
  let rounds: number;
  try {
    await Promise.all([caller(), caller(), caller()]);
    rounds = await attacker.rounds;
  } finally {
    clearInterval(timer);
    await rm(stopDirectory, { recursive: true, force: true });
  }
  console.log(`swap race: ${results.length} calls against ${rounds} attacker rounds`);
  return { results, rounds };
}

// Names that exist only outside the workspace: listing a swapped directory would show them.
const OUTSIDE_NAMES = ['cert.pem', 'ssl', 'settings.json', 'id_ed25519'];

describe('swap race (rows 26 and 27)', () => {
  let fx: SentinelFixture;
  let h: FsHarness | undefined;

  beforeEach(async () => {
    fx = await createSentinelFixture();
    await fx.file('data.txt', 'INSIDE-DATA\n');
    await fx.file('sub/passwd', 'INSIDE-SUB\n');
    await fx.file('target.txt', 'INSIDE-TARGET\n');
    await mkdir(fx.inRoot('wdir'));
  });

  afterEach(async () => {
    try {
      await h?.close();
      h = undefined;
      await fx.verify();
    } finally {
      await fx.cleanup();
    }
  });

  it('never returns outside bytes or names, and never writes outside (Linux, /proc strategy)', { timeout: 60_000 }, async () => {
    h = await createFsHarness(fx.root, { write: true, strategy: 'proc' });
    const reads = [
      { name: 'read_file', arguments: { path: 'data.txt' } },
      { name: 'read_file', arguments: { path: 'sub/passwd' } },
    ];
    const { results, rounds } = await race(h, fx, [
      ...reads,
      ...reads,
      ...reads,
      { name: 'list_dir', arguments: { path: 'sub' } },
      { name: 'search_files', arguments: { pattern: '.', path: 'sub' } },
      // A literal ("IN" is in the inside and the outside files): ripgrep, when installed, lists candidates by path and may be
      // led outside; the confined walk re-reads only inside files.
      { name: 'search_files', arguments: { pattern: 'IN', path: 'sub' } },
      { name: 'search_files', arguments: { pattern: 'IN', path: '.', hidden: true } },
      { name: 'find_files', arguments: { pattern: '**/*', path: 'sub' } },
      { name: 'read_file', arguments: { path: 'target.txt' } },
      { name: 'write_file', arguments: { path: 'target.txt', content: 'WRITTEN\n' } },
      { name: 'edit_file', arguments: { path: 'target.txt', old_string: 'WRITTEN\n', new_string: 'EDITED\n' } },
      { name: 'write_file', arguments: { path: 'wdir/out.txt', content: 'WRITTEN\n' } },
    ]);

    expect(rounds).toBeGreaterThan(100);
    expect(results.length).toBeGreaterThanOrEqual(MIN_CALLS);
    assertNoMarker(results, fx.marker);
    assertNoMarker(h.results, fx.marker);
    for (const result of results) for (const name of OUTSIDE_NAMES) expect(result.content).not.toContain(name);
    // The race really ran both ways: some calls saw the inside file, some were refused.
    const readResults = results.filter((result) => result.toolName === 'read_file');
    expect(readResults.some((result) => result.ok && result.content === '     1\tINSIDE-DATA')).toBe(true);
    expect(readResults.some((result) => !result.ok)).toBe(true);
    expect(results.some((result) => result.toolName === 'write_file' && result.ok)).toBe(true);
    // Nothing but the codes of a refused or raced path (the attacker rewrites target.txt: a write
    // after it is refused as not read, or changed since the read).
    const codes = new Set(results.flatMap((result) => (result.ok ? [] : [result.error.code])));
    for (const code of codes) {
      expect(['PATH_OUTSIDE_WORKSPACE', 'PATH_CHANGED', 'NOT_FOUND', 'BROKEN_SYMLINK', 'NO_MATCH', 'NOT_READ', 'STALE_READ']).toContain(code);
    }
    // The outside targets were never written through (fx.verify checks every sentinel too).
    expect(await readFile(`${fx.home}/.bashrc`, 'utf8')).toContain(fx.marker);
  });
});
