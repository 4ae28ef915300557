import { describe, expect, it } from 'vitest';
import { ownProviderData, partsSummary, withToolCalls } from './assistant-parts.js';
import type { AssistantPart } from './model.js';

const call = { id: 'toolu_1', name: 'read_file', arguments: '{"path":"a"}' };
const parts: AssistantPart[] = [
  { type: 'reasoning', text: 'Look ', providerData: { anthropic: { signature: 'sig==' } } },
  { type: 'reasoning', text: '', providerData: { anthropic: { redactedData: 'opaque' } } },
  { type: 'reasoning', text: 'first.' },
  { type: 'text', text: 'Reading ' },
  { type: 'text', text: 'a.' },
  { type: 'tool-call', call },
];

describe('partsSummary', () => {
  it('derives content, reasoning and tool calls in order, joined with nothing between', () => {
    expect(partsSummary(parts)).toEqual({ text: 'Reading a.', reasoning: 'Look first.', toolCalls: [call] });
  });

  it('has no reasoning when no part has reasoning text', () => {
    expect(partsSummary([{ type: 'text', text: 'hi' }]).reasoning).toBeUndefined();
    expect(partsSummary([{ type: 'reasoning', text: '', providerData: { anthropic: { redactedData: 'x' } } }]).reasoning).toBeUndefined();
  });
});

describe('withToolCalls', () => {
  it('puts the normalized calls in place of the parts’ calls, by position, and keeps everything else', () => {
    const normalized = { ...call, id: 'toolu_1_2', key: 'k' };
    const replaced = withToolCalls(parts, [normalized]);
    expect(replaced.slice(0, 5)).toEqual(parts.slice(0, 5));
    expect(replaced[5]).toEqual({ type: 'tool-call', call: normalized });
  });

  it('returns the same parts when the calls are the same objects', () => {
    expect(withToolCalls(parts, [call])).toBe(parts);
  });
});

describe('ownProviderData', () => {
  it("gives an adapter its own provider's data only", () => {
    const data = { anthropic: { signature: 's' }, google: { thoughtSignature: 't' } };
    expect(ownProviderData(data, 'anthropic')).toEqual({ signature: 's' });
    expect(ownProviderData(data, 'openai')).toBeUndefined();
    expect(ownProviderData(undefined, 'anthropic')).toBeUndefined();
    expect(ownProviderData({ ...data, ['toString']: {} } as never, 'constructor')).toBeUndefined();
  });
});
