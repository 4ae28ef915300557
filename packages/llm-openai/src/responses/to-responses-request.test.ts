import type { Message } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { toResponsesRequest } from './to-responses-request.js';

const tools = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

describe('toResponsesRequest', () => {
  it('is stateless and streamed, asks for encrypted reasoning, and sends tools as non-strict functions', () => {
    const { body } = toResponsesRequest({ messages: [{ role: 'user', content: 'hi' }], tools }, { model: 'gpt-5', extraBody: { reasoning: { effort: 'low' } } });
    expect(body).toEqual({
      reasoning: { effort: 'low' },
      model: 'gpt-5',
      input: [{ role: 'user', content: 'hi' }],
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      tools: [{ type: 'function', name: 'read_file', description: 'Read a file', parameters: tools[0]!.parameters, strict: false }],
    });
  });

  it('leaves include alone with store: true, and never lets extraBody replace the input', () => {
    const { body } = toResponsesRequest({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, { model: 'gpt-5', extraBody: { store: true, previous_response_id: 'resp_1', input: 'x' } });
    expect(body).toEqual({ store: true, previous_response_id: 'resp_1', input: [{ role: 'user', content: 'hi' }], model: 'gpt-5', stream: true });
  });

  it('pairs each function_call_output with its call, in call order, marks failures and sends images as input_image', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' }, { id: 'call_b', name: 'read_file', arguments: { path: 'b' } }] },
      { role: 'tool', toolCallId: 'call_b', toolName: 'read_file', content: 'no such file', isError: true },
      { role: 'tool', toolCallId: 'call_a', toolName: 'read_file', content: 'A', parts: [{ type: 'text', text: 'A' }, { type: 'image', url: 'https://example.com/a.png' }] },
    ];
    expect(toResponsesRequest({ messages, tools: [] }, { model: 'gpt-5', extraBody: undefined }).body['input']).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' }] },
      { role: 'assistant', content: 'Reading.' },
      { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call', call_id: 'call_b', name: 'read_file', arguments: '{"path":"b"}' },
      { type: 'function_call_output', call_id: 'call_a', output: [{ type: 'input_text', text: 'A' }, { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' }] },
      { type: 'function_call_output', call_id: 'call_b', output: 'Error: no such file' },
    ]);
  });
});
