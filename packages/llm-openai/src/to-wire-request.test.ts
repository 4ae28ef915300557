import type { ModelRequest } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { callIdContext, toWireRequest } from './to-wire-request.js';

const TOOL = { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } as const;
const OPTIONS = { model: 'm', includeUsage: true, sendReasoning: 'when-present' as const, extraBody: undefined };

describe('toWireRequest', () => {
  it('streams, asks for usage, and sends the tools as functions', () => {
    expect(toWireRequest({ messages: [{ role: 'user', content: 'hi' }], tools: [TOOL] }, OPTIONS)).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: TOOL.parameters } }],
    });
  });

  it('leaves out tools when there are none, and usage when not wanted', () => {
    const body = toWireRequest({ messages: [], tools: [] }, { ...OPTIONS, includeUsage: false });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('stream_options');
  });

  it('adds extraBody fields, which cannot replace the model, messages, tools or stream', () => {
    const body = toWireRequest(
      { messages: [{ role: 'user', content: 'hi' }], tools: [TOOL] },
      { ...OPTIONS, extraBody: { temperature: 0, parallel_tool_calls: false, model: 'other', stream: false, messages: [], stream_options: { continuous_usage_stats: true } } },
    );
    expect(body).toMatchObject({ temperature: 0, parallel_tool_calls: false, model: 'm', stream: true, stream_options: { continuous_usage_stats: true, include_usage: true } });
    expect(body['messages']).toHaveLength(1);
  });
});

describe('callIdContext', () => {
  it('numbers the answer after the assistant turns so far, and collects every id in use', () => {
    const request: ModelRequest = {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1_0', name: 't', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'call_1_0', toolName: 't', content: 'ok' },
        { role: 'assistant', content: 'done' },
        { role: 'tool', toolCallId: 'orphan', toolName: 't', content: 'ok' },
      ],
      tools: [],
    };
    expect(callIdContext(request)).toEqual({ turn: 3, taken: new Set(['call_1_0', 'orphan']) });
    expect(callIdContext({ messages: [], tools: [] }).turn).toBe(1);
  });
});
