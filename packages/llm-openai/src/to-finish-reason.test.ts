import { describe, expect, it } from 'vitest';
import { toFinishReason } from './to-finish-reason.js';

describe('toFinishReason', () => {
  it.each([
    ['stop', false, 'stop'],
    ['stop', true, 'tool_calls'],
    ['tool_calls', true, 'tool_calls'],
    ['tool_calls', false, 'stop'],
    ['function_call', true, 'tool_calls'],
    ['length', true, 'length'],
    ['max_tokens', false, 'length'],
    ['content_filter', true, 'content_filter'],
    ['eos', false, 'stop'],
    ['error', true, 'error'],
    ['insufficient_system_resource', false, 'error'],
    ['something_new', true, 'error'],
  ] as const)('%s (tool calls: %s) -> %s', (wire, hasCalls, expected) => {
    expect(toFinishReason(wire, hasCalls)).toBe(expected);
  });
});
