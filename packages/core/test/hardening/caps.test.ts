import { describe, expect, it } from 'vitest';
import { defineTool } from '@weir/core';
import { echoTool, harnessWith } from '../support.js';

const MAX = 2_000;

describe('caps hold everywhere', () => {
  it('TOOL_NOT_FOUND echoing a 5,000-character name stays within 2,000 characters', async () => {
    const harness = await harnessWith([echoTool().tool]);
    const result = await harness.executeToolCall({ id: 'a', name: 'x'.repeat(5_000), arguments: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    if (!result.ok) expect(result.error.message.length).toBeLessThanOrEqual(MAX);
  });

  it.each([
    ['BLOCKED', (ctx: any) => void ctx.hooks.prepareExecution.tap('b', () => ({ action: 'block', reason: 'r'.repeat(10_000) }))],
    ['DENIED', (ctx: any) => void ctx.guards.add('d', () => ({ decision: 'deny', reason: 'r'.repeat(10_000) }))],
    ['HOOK_FAILED', (ctx: any) => void ctx.hooks.prepareExecution.tap('h', () => { throw new Error('r'.repeat(10_000)); })],
    ['DENIED by the user', (ctx: any) => {
      ctx.guards.add('ask', () => ({ decision: 'ask' }));
      ctx.approval.setResponder(() => ({ decision: 'deny', message: 'm'.repeat(10_000) }));
    }],
  ])('%s reasons are capped', async (_code, setup) => {
    const harness = await harnessWith([echoTool().tool], setup);
    const result = await harness.executeToolCall({ id: 'a', name: 'echo', arguments: { text: 'x' } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message.length).toBeLessThanOrEqual(MAX);
    expect(result.content.length).toBeLessThanOrEqual(MAX + 40);
  });

  it('an INVALID_ARGUMENTS list of 200,000 problems is capped', { timeout: 60_000 }, async () => {
    const properties = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`p${index}`, { type: 'string' }]));
    const tool = defineTool({ name: 'wide', description: 'Takes many strings.', tier: 'read-only', parameters: { type: 'object', properties, additionalProperties: { type: 'string' } }, execute: () => 'ran' });
    const harness = await harnessWith([tool]);
    const args = Object.fromEntries(Array.from({ length: 200_000 }, (_, index) => [`k${index}`, index]));
    const result = await harness.executeToolCall({ id: 'a', name: 'wide', arguments: args });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!result.ok) {
      expect(result.error.message.length).toBeLessThanOrEqual(MAX);
      expect(result.error.message).toMatch(/more/);
    }
  });

  it('model-visible content stays within maxContentChars after the finalizeContent taps', async () => {
    const harness = await harnessWith([echoTool().tool], (ctx) => {
      ctx.hooks.finalizeContent.tap('inflate', (content) => content.repeat(1_000));
    }, { maxContentChars: 500 });
    const result = await harness.executeToolCall({ id: 'a', name: 'echo', arguments: { text: 'abcdef' } });
    expect(result.content.length).toBeLessThanOrEqual(500);
  });
});
