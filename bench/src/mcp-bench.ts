import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHarness } from '@weir/core';
import { mcpServer } from '@weir/mcp';
import { median, printTable } from './measure.js';

const SERVER = fileURLToPath(new URL('./mcp-echo-server.mjs', import.meta.url));
const ARGUMENTS = { text: 'hi' } as const;

/**
 * The MCP bench, run in a process of its own (this file, with the same node flags and loader):
 * the other sections' modules (the peers' SDKs, OpenTelemetry, BullMQ) and their heap stay out of
 * the measured process, which holds the two clients and nothing else.
 */
export function mcpBench(options: { quick: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...(options.quick ? ['--quick'] : [])], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`the MCP bench process ended with ${signal ?? `code ${code}`}`))));
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await measureMcpCall({ quick: process.argv.includes('--quick') });
}

/**
 * One MCP tool call through weir (`mcpServer`, the whole six-stage pipeline with its deadline,
 * cancellation and progress) against the same call through the bare SDK client, same run. Like
 * with like: each client starts its own copy of the same echo server (`mcp-echo-server.mjs`, which
 * answers at once) with the same node over stdio, and calls its `echo` tool with the same arguments;
 * both are warmed up, then measured in interleaved rounds, so a burst of load on this shared machine
 * hits both alike. Target: weir adds at most 10 % or 50 µs per call, whichever is larger. The added
 * time is the median of the per-round differences (each round measures both back to back); each
 * case's CPU time per call is printed beside its wall time, as the wall time on a loaded machine
 * counts the time other processes held the cores.
 */
async function measureMcpCall(options: { quick: boolean }): Promise<void> {
  const bare = new Client({ name: 'bench-bare', version: '1.0.0' });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER] }));
  const harness = createHarness();
  await harness.use(mcpServer({ name: 'bench', command: process.execPath, args: [SERVER], tiers: { echo: 'read-only' } }));
  let id = 0;
  const cases = {
    bare: async (iterations: number) => {
      for (let i = 0; i < iterations; i += 1) {
        const result = await bare.callTool({ name: 'echo', arguments: { ...ARGUMENTS } });
        if (result.isError === true) throw new Error('the bare bench call failed');
      }
    },
    weir: async (iterations: number) => {
      for (let i = 0; i < iterations; i += 1) {
        const result = await harness.executeToolCall({ id: `b${++id}`, name: 'bench__echo', arguments: { ...ARGUMENTS } });
        if (!result.ok) throw new Error(`the weir bench call failed: ${result.content}`);
      }
    },
  };
  const { iterations, rounds, warmupRounds } = options.quick ? { iterations: 100, rounds: 5, warmupRounds: 1 } : { iterations: 300, rounds: 21, warmupRounds: 3 };
  const wall = { bare: [] as number[], weir: [] as number[] };
  const cpu = { bare: [] as number[], weir: [] as number[] };
  try {
    for (let round = 0; round < warmupRounds + rounds; round += 1) {
      for (const name of ['bare', 'weir'] as const) {
        const wallStart = process.hrtime.bigint();
        const cpuStart = process.cpuUsage();
        await cases[name](iterations);
        const used = process.cpuUsage(cpuStart);
        if (round < warmupRounds) continue;
        wall[name].push(Number(process.hrtime.bigint() - wallStart) / iterations / 1000);
        cpu[name].push((used.user + used.system) / iterations);
      }
    }
  } finally {
    await bare.close();
    await harness.close();
  }
  const differences = (samples: { bare: number[]; weir: number[] }) => samples.weir.map((weir, round) => weir - samples.bare[round]!);
  const bareUs = median([...wall.bare]);
  const weirUs = median([...wall.weir]);
  const added = median(differences(wall));
  const addedCpu = median(differences(cpu));
  const allowed = Math.max(bareUs * 0.1, 50);
  const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
  console.log(`\nMCP tool call (echo over stdio), median of ${rounds} interleaved rounds of ${iterations} calls`);
  printTable(
    ['case', 'µs/call', 'CPU µs/call', 'added (wall)', 'added (CPU)'],
    [
      ['bare SDK client (Client + StdioClientTransport)', bareUs.toFixed(1), median([...cpu.bare]).toFixed(1), '-', '-'],
      ['weir mcpServer, full pipeline', weirUs.toFixed(1), median([...cpu.weir]).toFixed(1), `${signed(added)} µs (${signed((added / bareUs) * 100)} %)`, `${signed(addedCpu)} µs`],
    ],
  );
  console.log(`weir adds ${added.toFixed(1)} µs per call; target <= ${allowed.toFixed(1)} µs (10 % or 50 µs, whichever is larger): ${added <= allowed ? 'met' : 'NOT met'}`);
}
