import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHarness } from '@weir/core';
import { mcpServer } from '@weir/mcp';
import { interleavedMedians, printTable } from './measure.js';

const SERVER = fileURLToPath(new URL('./mcp-echo-server.mjs', import.meta.url));

/**
 * One MCP tool call through weir (`mcpServer`, the whole six-stage pipeline with a deadline)
 * against the same call through the bare SDK client, same run, interleaved rounds. Each client
 * talks to its own copy of the same echo server over stdio, so both pay the same round trip.
 * Target: weir adds at most 10 % or 50 µs per call, whichever is larger.
 */
export async function mcpBench(options: { quick: boolean }): Promise<void> {
  const bare = new Client({ name: 'bench-bare', version: '1.0.0' });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER] }));
  const harness = createHarness();
  await harness.use(mcpServer({ name: 'bench', command: process.execPath, args: [SERVER], tiers: { echo: 'read-only' } }));
  let id = 0;
  try {
    const medians = await interleavedMedians(
      {
        'bare SDK client': async (iterations) => {
          for (let i = 0; i < iterations; i += 1) await bare.callTool({ name: 'echo', arguments: { text: 'hi' } });
        },
        'weir mcpServer, full pipeline': async (iterations) => {
          for (let i = 0; i < iterations; i += 1) {
            const result = await harness.executeToolCall({ id: `b${++id}`, name: 'bench__echo', arguments: { text: 'hi' } });
            if (!result.ok) throw new Error(`the bench call failed: ${result.content}`);
          }
        },
      },
      options.quick ? { iterations: 50, rounds: 3, warmupRounds: 1 } : { iterations: 500, rounds: 11, warmupRounds: 2 },
    );
    const bareUs = medians['bare SDK client']! / 1000;
    const weirUs = medians['weir mcpServer, full pipeline']! / 1000;
    const added = weirUs - bareUs;
    const allowed = Math.max(bareUs * 0.1, 50);
    console.log('\nMCP tool call (echo over stdio), median of interleaved rounds');
    printTable(
      ['case', 'µs/call', 'vs bare'],
      [
        ['bare SDK client', bareUs.toFixed(1), '-'],
        ['weir mcpServer, full pipeline', weirUs.toFixed(1), `${added >= 0 ? '+' : ''}${added.toFixed(1)} µs (${((added / bareUs) * 100).toFixed(1)} %)`],
      ],
    );
    console.log(`weir adds ${added.toFixed(1)} µs per call; target <= ${allowed.toFixed(1)} µs (10 % or 50 µs, whichever is larger): ${added <= allowed ? 'met' : 'NOT met'}`);
  } finally {
    await bare.close();
    await harness.close();
  }
}
