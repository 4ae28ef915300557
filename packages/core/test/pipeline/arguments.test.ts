import { describe, expect, it } from 'vitest';
import { createHarness, defineTool } from '@weir/core';
import { z } from 'zod';
import { echoTool, harnessWith } from '../support.js';

describe('stage 1: resolving the tool and validating arguments', () => {
  it('answers an unknown tool with TOOL_NOT_FOUND naming the tools that exist', async () => {
    const harness = await harnessWith([echoTool().tool]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'ehco', arguments: '{}' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('TOOL_NOT_FOUND');
    expect(result.error.message).toContain('"ehco"');
    expect(result.error.message).toContain('echo');
    expect(result.attempts).toBe(0);
  });

  it('accepts arguments as a JSON string or as an object', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool]);
    const fromString = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: '{"text":"a"}' });
    const fromObject = await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: { text: 'b' } });
    expect(fromString).toMatchObject({ ok: true, value: 'a', content: 'a' });
    expect(fromObject).toMatchObject({ ok: true, value: 'b', content: 'b' });
    expect(body).toHaveBeenCalledTimes(2);
  });

  it('treats an empty argument string as no arguments', async () => {
    const ping = defineTool({ name: 'ping', description: 'Answers pong.', tier: 'read-only', parameters: { type: 'object', properties: {} }, execute: () => 'pong' });
    const harness = await harnessWith([ping]);
    expect(await harness.executeToolCall({ id: 'c1', name: 'ping', arguments: '' })).toMatchObject({ ok: true, content: 'pong' });
  });

  it.each([
    ['malformed JSON', '{"text": "a"'],
    ['a JSON array', '["a"]'],
    ['JSON null', 'null'],
    ['a Python-style dict', "{'text': 'a'}"],
  ])('refuses %s with INVALID_ARGUMENTS and never runs the body', async (_label, raw) => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: raw });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(body).not.toHaveBeenCalled();
  });

  it('names every failing path so the model can fix the whole call at once', async () => {
    const tool = defineTool({
      name: 'move',
      description: 'Moves a file.',
      tier: 'write',
      parameters: {
        type: 'object',
        properties: {
          from: { type: 'string' },
          to: { type: 'string' },
          options: { type: 'object', properties: { overwrite: { type: 'boolean' } }, additionalProperties: false },
          mode: { enum: ['copy', 'move'] },
        },
        required: ['from', 'to'],
        additionalProperties: false,
      },
      execute: () => 'moved',
    });
    const harness = await harnessWith([tool]);
    const result = await harness.executeToolCall({
      id: 'c1',
      name: 'move',
      arguments: { from: 42, options: { overwrite: 'yes', force: true }, mode: 'delete', extra: 1 },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_ARGUMENTS');
    for (const path of ['/from', '/to', '/options/overwrite', '/options/force', '/mode', '/extra']) {
      expect(result.error.message).toContain(`${path}:`);
    }
  });

  it('validates Standard Schema (zod) parameters and passes the parsed value to the body', async () => {
    let received: unknown;
    const tool = defineTool({
      name: 'count',
      description: 'Counts to n.',
      tier: 'read-only',
      parameters: z.object({ n: z.number().int().min(1), label: z.string().default('items') }),
      execute: (args) => {
        received = args;
        return args.n;
      },
    });
    const harness = createHarness();
    harness.tools.register(tool);
    const bad = await harness.executeToolCall({ id: 'c1', name: 'count', arguments: { n: 0 } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!bad.ok) expect(bad.error.message).toContain('/n:');
    expect(received).toBeUndefined();
    await harness.executeToolCall({ id: 'c2', name: 'count', arguments: { n: 3 } });
    expect(received).toEqual({ n: 3, label: 'items' });
  });
});
