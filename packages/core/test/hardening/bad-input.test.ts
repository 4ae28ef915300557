import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, type LanguageModel, type ToolCall } from '@weir/core';

import { echoTool, harnessWith, scriptedModel } from '../support.js';

describe('bad input is an answer, never a rejection', () => {
  it('a null or malformed entry in executeToolCalls becomes that call’s error result; the others run', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool]);
    const calls = [
      { id: 'a', name: 'echo', arguments: { text: '1' } },
      null,
      { id: 'b', name: 42 },
      'echo',
      { id: 'c', name: 'echo', arguments: { text: '3' } },
    ] as unknown as ToolCall[];
    const results = await harness.executeToolCalls(calls);
    expect(results.map((result) => result.ok)).toEqual([true, false, false, false, true]);
    expect(results[1]).toMatchObject({ error: { code: 'INVALID_CALL' } });
    expect(body).toHaveBeenCalledTimes(2);
  });

  it('executeToolCall with a malformed call resolves with an error result', async () => {
    const harness = await harnessWith([]);
    await expect(harness.executeToolCall(undefined as unknown as ToolCall)).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_CALL' } });
    await expect(harness.executeToolCalls('nope' as unknown as ToolCall[])).resolves.toEqual([]);
  });

  it('arguments nested deeper than the limit are INVALID_ARGUMENTS, not a stack overflow', async () => {
    const tool = defineTool({ name: 'any', description: 'Takes anything.', tier: 'read-only', parameters: { type: 'object' }, execute: () => 'ran' });
    const harness = await harnessWith([tool]);
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const result = await harness.executeToolCall({ id: 'a', name: 'any', arguments: deep });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!result.ok) expect(result.error.message).toMatch(/deeper than 64/);
    let object: Record<string, unknown> = {};
    const root = object;
    for (let depth = 0; depth < 70; depth += 1) object = (object.next = {}) as Record<string, unknown>;
    expect(await harness.executeToolCall({ id: 'b', name: 'any', arguments: root })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });

  it('the agent turns a malformed tool call from a model into INVALID_MODEL_RESPONSE, the history left answerable', async () => {
    const { tool } = echoTool();
    const harness = await harnessWith([tool]);
    const broken: LanguageModel = {
      id: 'broken',
      complete: async () => ({ text: '', toolCalls: [{ id: 'x', name: null, arguments: {} }] as never, finishReason: 'tool_calls' }),
    } as LanguageModel;
    const agent = createAgent({ model: broken, harness });
    await expect(agent.turn('go')).rejects.toMatchObject({ code: 'INVALID_MODEL_RESPONSE' });
    // Answerable: the history ends with a user message or an assistant message without open tool calls.
    const last = agent.messages.at(-1)!;
    expect(last.role === 'user' || (last.role === 'assistant' && !(last as { toolCalls?: unknown[] }).toolCalls?.length)).toBe(true);
    const model = scriptedModel([{ text: 'fine' }]);
    const next = createAgent({ model, harness });
    expect((await next.turn('again')).text).toBe('fine');
  });
});
