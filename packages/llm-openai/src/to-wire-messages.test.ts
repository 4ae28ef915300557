import type { Message } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { toWireMessages } from './to-wire-messages.js';

const CALLS = [
  { id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' },
  { id: 'call_b', name: 'list_dir', arguments: { path: '.' } },
] as const;

const HISTORY: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Look.' },
  { role: 'assistant', content: '', toolCalls: CALLS, reasoning: 'Read both.' },
  { role: 'tool', toolCallId: 'call_a', toolName: 'read_file', content: 'A' },
  { role: 'tool', toolCallId: 'call_b', toolName: 'list_dir', content: 'Path outside the workspace.', isError: true },
  { role: 'assistant', content: 'Done.', reasoning: 'Summarise.' },
];

describe('toWireMessages', () => {
  it('maps the whole history, in order', () => {
    expect(toWireMessages(HISTORY, 'when-present')).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Look.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
          { id: 'call_b', type: 'function', function: { name: 'list_dir', arguments: '{"path":"."}' } },
        ],
        reasoning_content: 'Read both.',
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'A' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: Path outside the workspace.' },
      { role: 'assistant', content: 'Done.', reasoning_content: 'Summarise.' },
    ]);
  });

  it('sends reasoning back only on tool-call turns, or never, when so configured', () => {
    const withCalls = toWireMessages(HISTORY, 'with-tool-calls');
    expect(withCalls[2]).toHaveProperty('reasoning_content', 'Read both.');
    expect(withCalls[5]).not.toHaveProperty('reasoning_content');
    const never = toWireMessages(HISTORY, 'never');
    expect(never.some((message) => 'reasoning_content' in message)).toBe(false);
  });

  it('does not mark an error twice, and leaves successful results alone', () => {
    const wire = toWireMessages(
      [
        { role: 'tool', toolCallId: 'x', toolName: 't', content: 'Error: no such file', isError: true },
        { role: 'tool', toolCallId: 'y', toolName: 't', content: 'error code 2', isError: true },
        { role: 'tool', toolCallId: 'z', toolName: 't', content: 'Errors: none', isError: false },
      ],
      'when-present',
    );
    expect(wire.map((message) => message.content)).toEqual(['Error: no such file', 'error code 2', 'Errors: none']);
  });

  it('keeps text next to tool calls, and leaves out empty tool calls and empty reasoning', () => {
    expect(toWireMessages([{ role: 'assistant', content: 'Reading.', toolCalls: [CALLS[0]] }], 'when-present')[0]).toMatchObject({ content: 'Reading.' });
    expect(toWireMessages([{ role: 'assistant', content: '', toolCalls: [], reasoning: '' }], 'when-present')).toEqual([{ role: 'assistant', content: '' }]);
  });

  it('throws a TypeError for an unknown role', () => {
    expect(() => toWireMessages([{ role: 'developer', content: 'x' } as unknown as Message], 'when-present')).toThrow(TypeError);
  });
});

describe('toWireMessages and images', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const image = { type: 'image' as const, data: PNG, mediaType: 'image/png' };

  it('sends a user message with images as text and image_url parts', () => {
    const wire = toWireMessages([{ role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, image, { type: 'image', url: 'https://example.com/a.jpg' }] }], 'never', true);
    expect(wire).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
        ],
      },
    ]);
  });

  it('puts the images of one batch after its last tool message, never between two of them', () => {
    const wire = toWireMessages(
      [
        { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'shot', arguments: '{}' }, { id: 'b', name: 'shot', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'a', toolName: 'shot', content: 'first', parts: [{ type: 'text', text: 'first' }, image] },
        { role: 'tool', toolCallId: 'b', toolName: 'shot', content: 'second', parts: [{ type: 'text', text: 'second' }, image, image] },
        { role: 'assistant', content: 'done' },
      ],
      'never',
      true,
    );
    expect(wire.map((message) => message.role)).toEqual(['assistant', 'tool', 'tool', 'user', 'assistant']);
    const images = wire[3]!.content as { type: string; text?: string }[];
    expect(images.map((part) => part.text ?? part.type)).toEqual([
      'Images from the result of tool call a (shot):',
      'image_url',
      'Images from the result of tool call b (shot):',
      'image_url',
      'image_url',
    ]);
    expect(wire[2]!.content).toBe('second\n\n[2 images follow in the next user message]');
  });

  it('without acceptsImages, every image is a note in its place, and a text-only history is unchanged', () => {
    const wire = toWireMessages([{ role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, image] }], 'never');
    expect(wire).toEqual([{ role: 'user', content: 'look\n\n[image: 70 B image/png, not shown: this model takes no images]' }]);
    expect(toWireMessages([{ role: 'user', content: 'plain' }], 'never', true)).toEqual([{ role: 'user', content: 'plain' }]);
  });
});
