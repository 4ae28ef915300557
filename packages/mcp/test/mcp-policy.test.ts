import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, definePlugin, type ApprovalRequest, type Harness, type ResultAction } from '@weir/core';
import { safety } from '@weir/safety';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { FILESYSTEM_BIN, NODE } from './servers.js';

// One server-filesystem for the file: starting node is slow on a busy machine.
let harness: Harness;
let root: string;
const asked: ApprovalRequest[] = [];
let answer: 'allow' | 'deny' = 'deny';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weir-mcp-fs-'));
  writeFileSync(join(root, 'notes.txt'), 'first line\n');
  harness = createHarness();
  // The README's five lines, with the server run by node directly instead of through npx.
  await harness.use(mcpServer({ name: 'fs', command: NODE, args: [FILESYSTEM_BIN, root], tiers: { read_text_file: 'read-only', list_directory: 'read-only' } }));
  await harness.use(safety({ mode: 'auto', rules: [{ deny: 'fs__move_file' }] }));
  await harness.use(
    definePlugin({
      name: 'test-approver',
      setup(ctx) {
        ctx.approval.setResponder((request) => {
          asked.push(request);
          return { decision: answer, message: 'not now' };
        });
      },
    }),
  );
});
afterAll(async () => {
  await harness?.close();
  rmSync(root, { recursive: true, force: true });
});

let seq = 0;
const call = (name: string, args: Record<string, unknown>) => harness.executeToolCall({ id: `p${++seq}`, name, arguments: args });

describe('an MCP tool goes through the guards and the approval like any tool', () => {
  it('a mapped read-only tool runs without asking', async () => {
    const result = await call('fs__read_text_file', { path: join(root, 'notes.txt') });
    expect(result).toMatchObject({ ok: true });
    expect(result.content).toContain('first line');
    expect(asked).toEqual([]);
  });

  it('a deny rule stops the call before the server sees it', async () => {
    const result = await call('fs__move_file', { source: join(root, 'notes.txt'), destination: join(root, 'moved.txt') });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('first line\n');
  });

  it('an unmapped tool is dangerous: it asks, and a denial keeps the file as it was', async () => {
    answer = 'deny';
    const denied = await call('fs__write_file', { path: join(root, 'notes.txt'), content: 'overwritten' });
    expect(denied).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(asked.at(-1)).toMatchObject({ toolName: 'fs__write_file', tier: 'dangerous', arguments: { content: 'overwritten' } });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('first line\n');
  });

  it('an approval lets the exact arguments through to the server', async () => {
    answer = 'allow';
    const allowed = await call('fs__write_file', { path: join(root, 'notes.txt'), content: 'approved' });
    expect(allowed).toMatchObject({ ok: true });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('approved');
  });

  it('a path outside the allowed directory is the server\'s error result, read by the model', async () => {
    const result = await call('fs__read_text_file', { path: '/etc/hostname' });
    expect(result).toMatchObject({ ok: false, error: { code: 'MCP_TOOL_ERROR' } });
    expect(result.content).toMatch(/outside allowed|Access denied/i);
  });

  it('a postExecute tap sees and may block an MCP result', async () => {
    const unload = await harness.use(
      definePlugin({
        name: 'redactor',
        setup(ctx) {
          ctx.hooks.postExecute.tapPromise(async (result): Promise<ResultAction | undefined> =>
            result.ok && result.content.includes('approved') ? { action: 'block', reason: 'contains a secret' } : undefined,
          );
        },
      }),
    );
    try {
      const result = await call('fs__read_text_file', { path: join(root, 'notes.txt') });
      expect(result).toMatchObject({ ok: false, error: { code: 'BLOCKED' } });
    } finally {
      await unload();
    }
  });
});
