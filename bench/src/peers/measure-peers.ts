import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LongRunResult } from './long-run.js';
import type { PeerReport } from './peer-report.js';

/**
 * Runs each peer script in a process of its own (a peer's JIT state, heap and globals such as the
 * Agents SDK's tracing switch must not leak into the other's figures or into weir's), one after
 * the other (two loops on a two-core machine would time each other), and collects their JSON lines.
 */

const PEERS_DIR = dirname(fileURLToPath(import.meta.url));
const BENCH_ROOT = join(PEERS_DIR, '..', '..');
const SCRIPTS = [
  { peer: 'ai (Vercel AI SDK)', file: 'ai-sdk-loop.ts' },
  { peer: '@openai/agents-core', file: 'openai-agents-loop.ts' },
] as const;
/** A full script takes about 20 s; past this it is stuck and is stopped. */
const SCRIPT_TIMEOUT_MS = 45_000;

/** The tsx binary, found the way Node finds packages: node_modules/.bin upward from the bench package. */
function findTsx(): string {
  let dir = BENCH_ROOT;
  for (;;) {
    const candidate = join(dir, 'node_modules', '.bin', 'tsx');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`tsx not found in node_modules/.bin above ${BENCH_ROOT}`);
    dir = parent;
  }
}

interface ScriptOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

function runScript(tsx: string, file: string, extraArgs: readonly string[]): Promise<ScriptOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['--expose-gc', join(PEERS_DIR, file), ...extraArgs], {
      cwd: BENCH_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, SCRIPT_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** The script's report: its last stdout line that parses as JSON (a library may print before it). */
function parseReport(outcome: ScriptOutcome): PeerReport | undefined {
  const lines = outcome.stdout.split('\n').filter((l) => l.startsWith('{'));
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      return JSON.parse(lines[i]!) as PeerReport;
    } catch {
      // not the report line
    }
  }
  return undefined;
}

export interface MeasurePeersOptions {
  /** Passes `--quick` to the scripts: a few seconds each, rough figures. */
  readonly quick?: boolean;
}

export async function measurePeers(options: MeasurePeersOptions = {}): Promise<PeerReport[]> {
  const tsx = findTsx();
  const reports: PeerReport[] = [];
  for (const script of SCRIPTS) {
    const outcome = await runScript(tsx, script.file, options.quick === true ? ['--quick'] : []);
    const report = parseReport(outcome);
    if (report !== undefined) {
      reports.push(report);
      continue;
    }
    const why = outcome.timedOut
      ? `timed out after ${SCRIPT_TIMEOUT_MS / 1000} s`
      : `exited with ${outcome.signal ?? `code ${outcome.code}`} and no report`;
    reports.push({
      peer: script.peer,
      version: 'unknown',
      node: process.version,
      results: [],
      heapBytesPerStep: null,
      bareHeapBytesPerStep: null,
      notes: 'the peer script failed',
      error: `${why}; stderr: ${outcome.stderr.trim().split('\n').slice(-5).join(' | ') || '(empty)'}`,
    });
  }
  return reports;
}

function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return 'n/a';
  const abs = Math.abs(n);
  if (abs >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)} MB`;
  if (abs >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${Math.round(n)} B`;
}

function us(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(2);
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: readonly string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const [header, ...body] = rows;
  return [line(header!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** The first step of the long run's overall heap slope (see longRun's heapBytesPerStep). */
function heapSlopeFrom(run: LongRunResult): number {
  return run.windows.find((w) => w.fromStep >= 100)?.fromStep ?? run.windows[0]?.fromStep ?? 0;
}

/** "600 µs, 52 KB (steps 10-100) -> 10.8 ms, 1.09 MB (steps 1000-1486)": the first and last windows. */
function growth(run: LongRunResult): string {
  const first = run.windows[0];
  const last = run.windows[run.windows.length - 1];
  if (first === undefined || last === undefined) return 'no windows';
  const w = (x: typeof first) => `${us(x.usPerStep)} µs, ${bytes(x.heapBytesPerStep)} (steps ${x.fromStep}-${x.toStep})`;
  return first === last ? w(first) : `${w(first)} -> ${w(last)}`;
}

/** The peers' table for `pnpm bench`: per-step medians, the same-process bare loop, ratios, heap. */
export function formatPeerTable(reports: readonly PeerReport[]): string {
  const rows: string[][] = [['peer', 'K', 'µs/step (median)', 'bare µs/step', 'ratio vs bare', 'heap/step (long run)']];
  const details: string[] = [];
  for (const r of reports) {
    if (r.error !== undefined) {
      rows.push([`${r.peer} ${r.version}`, '-', 'could not run', '', '', '']);
      details.push(`${r.peer}: ${r.error}`);
      continue;
    }
    // For a loop whose memory grows faster than linearly the figure depends on how far the run
    // went, so the column says over which steps it was taken.
    const heapSpan = r.longRun !== undefined ? ` (steps ${heapSlopeFrom(r.longRun)}-${r.longRun.steps})` : '';
    for (const k of r.results) {
      rows.push([
        `${r.peer} ${r.version}`,
        String(k.k),
        us(k.perStepUs),
        us(k.bareUs),
        `${k.ratio.toFixed(0)}x`,
        `${bytes(r.heapBytesPerStep)}${heapSpan}`,
      ]);
    }
    const k10 = r.results.find((x) => x.k === 10);
    const k50 = r.results.find((x) => x.k === 50);
    const lines = [`${r.peer} ${r.version} (node ${r.node}):`];
    if (k10 !== undefined && k50 !== undefined) {
      lines.push(
        `  per-step cost K=50 / K=10: ${(k50.perStepUs / k10.perStepUs).toFixed(2)}x (bare loop: ${(k50.bareUs / k10.bareUs).toFixed(2)}x)`,
      );
    }
    if (k10 !== undefined && Number.isFinite(k10.bareBeforePeerUs)) {
      lines.push(
        `  bare loop before the peer was imported: ${us(k10.bareBeforePeerUs)} µs/step at K=10, ` +
          `after: ${us(k10.bareUs)} (${(k10.bareUs / k10.bareBeforePeerUs).toFixed(2)}x; vs the pre-import bare the peer is ` +
          `${(k10.perStepUs / k10.bareBeforePeerUs).toFixed(0)}x)`,
      );
    }
    if (r.longRun !== undefined) {
      const L = r.longRun;
      lines.push(
        `  long run: ${L.steps} of ${L.requestedSteps} steps in ${L.stepSeconds.toFixed(1)} s (${L.stoppedBy}${L.error !== undefined ? `: ${L.error}` : ''})`,
        `  per step as history grows: ${growth(L)}`,
        `  live heap after the turn minus before, result dropped: ${bytes(L.retainedAfterTurnBytes)}` +
          (L.retainedAfterTurnBytes <= 64 * 1024 ? ' (nothing retained)' : ''),
      );
    }
    if (r.bareLongRun !== undefined) {
      lines.push(`  bare loop, same process: ${r.bareLongRun.steps} steps, ${growth(r.bareLongRun)}`);
    }
    if (r.networkAttempts !== undefined && r.networkAttempts > 0) lines.push(`  NETWORK ATTEMPTS: ${r.networkAttempts}`);
    lines.push(`  ${r.notes}`);
    details.push(lines.join('\n'));
  }
  return `${table(rows)}\n\n${details.join('\n\n')}`;
}
