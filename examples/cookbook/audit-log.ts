// Recipe: an audit log observing `result`. Observers get the frozen, final result, in call order
// within a batch; they cannot change it, and an observer that fails is logged and changes nothing.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, definePlugin, defineTool } from '@weir/core';
import { runIfMain } from './run-if-main.js';

export function auditLog(file: string) {
  return definePlugin({
    name: 'audit-log',
    setup(ctx) {
      ctx.hooks.result.tap((result) => {
        const entry = { callId: result.callId, tool: result.toolName, ok: result.ok, code: result.ok ? undefined : result.error.code, attempts: result.attempts };
        appendFileSync(file, `${JSON.stringify(entry)}\n`);
      });
    },
  });
}

const square = defineTool({
  name: 'square',
  description: 'Squares a number.',
  tier: 'read-only',
  parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  execute: async ({ n }) => {
    await new Promise((resolve) => setTimeout(resolve, 20 - n));
    return n * n;
  },
});

export async function main(): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'weir-audit-'));
  const file = join(folder, 'audit.jsonl');
  const harness = createHarness();
  harness.tools.register(square);
  await harness.use(auditLog(file));
  await harness.executeToolCalls([
    { id: 'a', name: 'square', arguments: { n: 3 } },
    { id: 'b', name: 'square', arguments: { n: 'four' } },
    { id: 'c', name: 'cube', arguments: { n: 5 } },
    { id: 'd', name: 'square', arguments: { n: 15 } },
  ]);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  rmSync(folder, { recursive: true, force: true });
  return lines;
}

await runIfMain(import.meta.url, main);
