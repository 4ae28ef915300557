import { spawn } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness } from '@weir/core';
import { shellTools } from '@weir/tools-shell';
import { interleavedMedians, printTable } from './measure.js';

/** Spawns `true` directly and waits until it exits. */
function spawnTrue(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

/**
 * `run_command` of `true` through the whole pipeline and the sandbox (setpriv, prlimit, bwrap,
 * bash), against spawning `true` directly, interleaved in the same run. Skipped, saying why,
 * where the sandbox cannot run.
 */
export async function shellBench(options: { quick: boolean }): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'weir-bench-shell-'));
  if (process.getuid?.() === 0) await chown(root, 65534, 65534);
  const harness = createHarness();
  try {
    try {
      await harness.use(shellTools({ root }));
    } catch (error) {
      console.log(`\nShell: skipped, the sandbox is not available here (${(error as Error).message.slice(0, 200)})`);
      return;
    }
    let id = 0;
    const medians = await interleavedMedians(
      {
        'spawn `true` directly': async (iterations) => {
          for (let i = 0; i < iterations; i += 1) await spawnTrue();
        },
        'run_command `true` (pipeline + sandbox)': async (iterations) => {
          for (let i = 0; i < iterations; i += 1) {
            const result = await harness.executeToolCall({ id: `bench-${++id}`, name: 'run_command', arguments: { command: 'true' } });
            if (!result.ok) throw new Error(`run_command failed: ${result.content}`);
          }
        },
      },
      { iterations: options.quick ? 3 : 10, rounds: options.quick ? 3 : 9, warmupRounds: 1 },
    );
    const direct = medians['spawn `true` directly']!;
    console.log('\nShell: one command, sandboxed through the pipeline vs spawned directly (median of interleaved rounds)');
    printTable(
      ['case', 'ms/command', 'x direct'],
      Object.entries(medians).map(([name, ns]) => [name, (ns / 1e6).toFixed(2), (ns / direct).toFixed(1)]),
    );
  } finally {
    await harness.close();
    await rm(root, { recursive: true, force: true });
  }
}
