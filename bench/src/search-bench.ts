import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { generateSearchTree, NEEDLE } from './generate-search-tree.js';
import { median, printTable } from './measure.js';

interface Searched {
  readonly lines: Set<string>;
  readonly ms: number;
  /** CPU time of this process during the call (user + system); ripgrep's own is not counted. */
  readonly cpuMs?: number;
}

/** `rg --no-config -n pattern .` in `root`: the matching path:line pairs and the wall time. */
function ripgrep(root: string, pattern: string): Promise<Searched> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile('rg', ['--no-config', '--line-number', '--no-heading', '--with-filename', '--regexp', pattern, '.'], { cwd: root, maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => {
      const ms = performance.now() - started;
      if (error !== null && (error as { code?: unknown }).code !== 1) return reject(error);
      const lines = new Set<string>();
      for (const line of stdout.split('\n')) {
        const match = /^(?:\.\/)?(.*?):(\d+):/.exec(line);
        if (match) lines.add(`${match[1]}:${match[2]}`);
      }
      resolve({ lines, ms });
    });
  });
}

async function searchFiles(harness: Harness, pattern: string): Promise<Searched> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await harness.executeToolCall({ id: 'bench', name: 'search_files', arguments: { pattern, limit: 1000 } });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (!result.ok) throw new Error(`search_files failed: ${result.content}`);
  const value = result.value as { matches: { path: string; line: number; context?: true }[] };
  return { lines: new Set(value.matches.filter((match) => !match.context).map((match) => `${match.path}:${match.line}`)), ms, cpuMs: (used.user + used.system) / 1000 };
}

function sameLines(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((line) => b.has(line));
}

/** Medians of `runs` interleaved runs of ripgrep and search_files (with and without ripgrep) on `root`. */
async function compare(label: string, root: string, pattern: string, runs: number): Promise<string[][]> {
  const withRipgrep = createHarness();
  const javascriptOnly = createHarness();
  await withRipgrep.use(fsTools({ root }));
  await javascriptOnly.use(fsTools({ root, ripgrep: false }));
  const samples: Record<'rg' | 'ripgrep' | 'javascript', number[]> = { rg: [], ripgrep: [], javascript: [] };
  const cpu: Record<'ripgrep' | 'javascript', number[]> = { ripgrep: [], javascript: [] };
  let reference: Set<string> | undefined;
  let agree = true;
  try {
    for (let run = 0; run < runs + 1; run += 1) {
      const rg = await ripgrep(root, pattern);
      const viaRipgrep = await searchFiles(withRipgrep, pattern);
      const viaJavascript = await searchFiles(javascriptOnly, pattern);
      reference ??= rg.lines;
      agree &&= sameLines(rg.lines, viaRipgrep.lines) && sameLines(rg.lines, viaJavascript.lines);
      // The first run warms the page cache and the JIT.
      if (run === 0) continue;
      samples.rg.push(rg.ms);
      samples.ripgrep.push(viaRipgrep.ms);
      samples.javascript.push(viaJavascript.ms);
      cpu.ripgrep.push(viaRipgrep.cpuMs ?? 0);
      cpu.javascript.push(viaJavascript.cpuMs ?? 0);
    }
  } finally {
    await withRipgrep.close();
    await javascriptOnly.close();
  }
  const rg = median(samples.rg);
  const row = (name: string, ms: number, cpuMs?: number) => [`${label}: ${name}`, String(reference?.size ?? 0), ms.toFixed(0), `${(ms / rg).toFixed(1)}x`, cpuMs === undefined ? '-' : cpuMs.toFixed(0), agree ? 'yes' : 'NO'];
  return [
    row('rg', rg),
    row('search_files (ripgrep lists)', median(samples.ripgrep), median(cpu.ripgrep)),
    row('search_files (JavaScript only)', median(samples.javascript), median(cpu.javascript)),
  ];
}

/**
 * search_files beside ripgrep (Debian's `rg`), on the seeded tree (500 folders of 100 files of 40
 * lines, the needle on about 300 lines) and on this repository: the same matching lines, and the
 * median wall time of each. `quick`: fewer runs.
 */
export async function searchBench(options: { quick: boolean }): Promise<void> {
  const runs = options.quick ? 2 : 5;
  if (!(await ensureRipgrep())) {
    console.log('\nsearch_files vs ripgrep: skipped, rg is not installed and could not be (apt-get install ripgrep)');
    return;
  }
  console.log(`\nsearch_files vs ripgrep (${await ripgrepVersion()}): median of ${runs} interleaved runs after a warm-up, wall time of one call (node CPU ms: this process only, not ripgrep's; compare commits by it on a busy machine)`);
  const base = await realpath(await mkdtemp(join(tmpdir(), 'weir-search-bench-')));
  try {
    const needles = await generateSearchTree(base);
    const repository = fileURLToPath(new URL('../..', import.meta.url));
    const rows = [
      ...(await compare(`tree (50,000 files, ${needles} needle lines)`, base, NEEDLE, runs)),
      ...(await compare('this repository ("defineTool")', repository, 'defineTool', runs)),
    ];
    printTable(['case', 'matching lines', 'ms', 'vs rg', 'node CPU ms', 'same lines as rg'], rows);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

// Debian's ripgrep, installed when missing and we may (root, apt-get): npm wrappers download a binary and fail offline.
async function ensureRipgrep(): Promise<boolean> {
  const runs = (command: string, args: string[]) => new Promise<boolean>((resolve) => execFile(command, args, { timeout: 300_000 }, (error) => resolve(error === null)));
  if (await runs('rg', ['--version'])) return true;
  if (process.getuid?.() !== 0) return false;
  console.log('installing Debian\'s ripgrep (apt-get install ripgrep) for the search comparison');
  return (await runs('apt-get', ['install', '-y', '-qq', 'ripgrep'])) && runs('rg', ['--version']);
}

function ripgrepVersion(): Promise<string> {
  return new Promise((resolve) => execFile('rg', ['--version'], (error, stdout) => resolve(error === null ? stdout.split('\n')[0]! : 'rg not installed')));
}
