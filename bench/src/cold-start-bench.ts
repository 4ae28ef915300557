import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, printTable } from './measure.js';

/**
 * Cold start: what a CLI or a serverless function pays on every start before its first line runs.
 * Each figure is a fresh `node` process (no tsx, no source condition) that imports one built entry
 * (`dist/index.js` of each first-party package, and the Vercel AI SDK's `ai` beside them) and
 * reports how long the `import()` took; the wall time of the whole process is shown too, beside
 * `node -e 0`, the cost of a process that imports nothing. Targets are measured in interleaved
 * rounds, so a burst of noise on this shared machine hits all of them alike. The target: each
 * first-party package imports in at most half the time of `ai` in the same run.
 */

const BENCH_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES_DIR = join(BENCH_ROOT, '..', 'packages');
/** The child: time one dynamic import of the URL it is given, print milliseconds. */
const CHILD = 'const t = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - t));';
const CHILD_TIMEOUT_MS = 20_000;

interface Target {
  readonly name: string;
  /** `undefined`: the empty process (`node -e 0`). */
  readonly url: string | undefined;
}

export interface ColdStartFigure {
  readonly name: string;
  /** Median milliseconds of the `import()` alone; `undefined` for the empty process. */
  readonly importMs: number | undefined;
  /** Median wall milliseconds of the whole process, spawn to exit. */
  readonly processMs: number;
}

/** Every first-party package with a built entry, by name; throws naming the ones that are not built. */
function firstPartyTargets(): Target[] {
  const targets: Target[] = [];
  const unbuilt: string[] = [];
  for (const dir of readdirSync(PACKAGES_DIR).sort()) {
    const manifestPath = join(PACKAGES_DIR, dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name: string; private?: boolean; exports?: Record<string, { default?: string }> };
    const entry = manifest.exports?.['.']?.default;
    if (manifest.private === true || entry === undefined) continue;
    const file = join(PACKAGES_DIR, dir, entry);
    if (!existsSync(file)) unbuilt.push(`${manifest.name} (${file})`);
    else targets.push({ name: manifest.name, url: pathToFileURL(file).href });
  }
  if (unbuilt.length > 0) throw new Error(`Cold start measures built packages; run \`npx -y pnpm@10 build\` first. Not built: ${unbuilt.join(', ')}`);
  return targets;
}

/** One fresh process; returns its import time (as it reported it) and its wall time. */
function runOnce(target: Target): { importMs: number | undefined; processMs: number } {
  const args = target.url === undefined ? ['-e', '0'] : ['--input-type=module', '-e', CHILD, target.url];
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, { cwd: BENCH_ROOT, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, env: { ...process.env, NODE_OPTIONS: '' } });
  const processMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`cold start of ${target.name} failed (${child.error?.message ?? `exit ${child.status}`}): ${child.stderr.slice(0, 500)}`);
  return { importMs: target.url === undefined ? undefined : Number(child.stdout), processMs };
}

/** Measures every target `runs` times in interleaved rounds (after one warm-up round for the disk cache). */
export function measureColdStart({ runs }: { runs: number }): ColdStartFigure[] {
  const ai = import.meta.resolve('ai', pathToFileURL(join(BENCH_ROOT, 'package.json')).href);
  const targets: Target[] = [{ name: 'node -e 0', url: undefined }, { name: 'ai (Vercel AI SDK)', url: ai }, ...firstPartyTargets()];
  const samples = targets.map(() => ({ importMs: [] as number[], processMs: [] as number[] }));
  for (let round = 0; round <= runs; round += 1) {
    targets.forEach((target, index) => {
      const sample = runOnce(target);
      if (round === 0) return;
      if (sample.importMs !== undefined) samples[index]!.importMs.push(sample.importMs);
      samples[index]!.processMs.push(sample.processMs);
    });
  }
  return targets.map((target, index) => ({
    name: target.name,
    importMs: target.url === undefined ? undefined : median(samples[index]!.importMs),
    processMs: median(samples[index]!.processMs),
  }));
}

/** Runs and prints the cold-start section. */
export function coldStartBench({ quick }: { quick: boolean }): ColdStartFigure[] {
  const runs = quick ? 3 : 15;
  const figures = measureColdStart({ runs });
  const aiMs = figures.find((figure) => figure.name.startsWith('ai '))!.importMs!;
  console.log(`\nCold start: a fresh node process imports one built entry; median of ${runs} runs each, interleaved. Target: at most half of ai's import time (${(aiMs / 2).toFixed(1)} ms in this run)`);
  printTable(
    ['entry', 'import ms', 'process ms', 'vs ai', 'target'],
    figures.map((figure) => {
      const ratio = figure.importMs === undefined ? undefined : figure.importMs / aiMs;
      const firstParty = figure.name.startsWith('@weir/');
      return [
        figure.name,
        figure.importMs === undefined ? '-' : figure.importMs.toFixed(1),
        figure.processMs.toFixed(1),
        ratio === undefined ? '-' : `${ratio.toFixed(2)}x`,
        !firstParty ? '' : ratio! <= 0.5 ? 'met' : 'MISSED',
      ];
    }),
  );
  return figures;
}
