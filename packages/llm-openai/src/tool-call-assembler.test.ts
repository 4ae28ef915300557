import { describe, expect, it } from 'vitest';
import { isOpenAIError } from './openai-error.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

const NO_IDS = { turn: 1, taken: new Set<string>() };
const fn = (name?: string, args?: unknown) => ({ function: { ...(name !== undefined && { name }), ...(args !== undefined && { arguments: args }) } });

function assemble(deltas: unknown[], ids = NO_IDS) {
  const assembler = new ToolCallAssembler();
  const events = deltas.map((delta) => assembler.accept(delta));
  return { calls: assembler.finish(ids), events };
}

describe('ToolCallAssembler', () => {
  it('joins argument fragments by index and reports deltas with the slot position', () => {
    const { calls, events } = assemble([
      { index: 0, id: 'a', ...fn('read_file', '') },
      { index: 0, ...fn(undefined, '{"pa') },
      { index: 0, ...fn(undefined, 'th":"x"}') },
    ]);
    expect(calls).toEqual([{ id: 'a', name: 'read_file', arguments: '{"path":"x"}' }]);
    expect(events).toEqual([
      { type: 'tool-call-delta', index: 0, id: 'a', name: 'read_file', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"pa' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'th":"x"}' },
    ]);
  });

  it('interleaved indexes stay apart', () => {
    const { calls } = assemble([
      { index: 0, id: 'a', ...fn('one', '{"n":') },
      { index: 1, id: 'b', ...fn('two', '{"m":') },
      { index: 0, ...fn(undefined, '1}') },
      { index: 1, ...fn(undefined, '2}') },
    ]);
    expect(calls.map((call) => call.arguments)).toEqual(['{"n":1}', '{"m":2}']);
  });

  it('without an index, opens a slot per new id, and per name when there is no id', () => {
    const { calls } = assemble([fn('list_dir', '{"path":"."}'), fn(undefined, ''), fn('read_file', '{"path":'), fn(undefined, '"a"}')]);
    expect(calls).toEqual([
      { id: 'call_1_0', name: 'list_dir', arguments: '{"path":"."}' },
      { id: 'call_1_1', name: 'read_file', arguments: '{"path":"a"}' },
    ]);
    const byId = assemble([{ id: 'x', ...fn('a', '{}') }, { id: 'y', ...fn('b', '{}') }, { id: 'y', ...fn(undefined, '') }]);
    expect(byId.calls.map((call) => call.id)).toEqual(['x', 'y']);
  });

  it('without an index, an id followed by its name stays one call', () => {
    const { calls } = assemble([{ id: 'x' }, fn('read_file', '{}')]);
    expect(calls).toEqual([{ id: 'x', name: 'read_file', arguments: '{}' }]);
  });

  it('an index reused with a new id is a new call', () => {
    const { calls } = assemble([
      { index: 0, id: 'a', ...fn('one', '{}') },
      { index: 0, id: 'b', ...fn('two', '{"x":') },
      { index: 0, ...fn(undefined, '1}') },
    ]);
    expect(calls).toEqual([
      { id: 'a', name: 'one', arguments: '{}' },
      { id: 'b', name: 'two', arguments: '{"x":1}' },
    ]);
  });

  it('an id or name sent again, or empty, never overwrites', () => {
    const { calls } = assemble([
      { index: 0, id: 'a', ...fn('read_file', '') },
      { index: 0, id: 'a', ...fn('', '{}') },
      { index: 0, id: '', ...fn('read_file', '') },
    ]);
    expect(calls).toEqual([{ id: 'a', name: 'read_file', arguments: '{}' }]);
  });

  it('a delta with nothing in it opens no call', () => {
    expect(assemble([{ index: 0, type: 'function' }, { index: 0, function: {} }, null, 'x']).calls).toEqual([]);
  });

  it('accepts object arguments whole, as canonical JSON text', () => {
    const { calls, events } = assemble([{ index: 0, id: 'a', ...fn('list_dir', '') }, { index: 0, ...fn(undefined, { path: 'docs', depth: 1 }) }, { index: 0, ...fn(undefined, { path: 'docs', depth: 1 }) }]);
    expect(calls).toEqual([{ id: 'a', name: 'list_dir', arguments: '{"path":"docs","depth":1}' }]);
    expect(events[2]).toBeUndefined();
  });

  it.each([
    ['a text fragment after object arguments', [fn('f', { a: 1 }), fn(undefined, '{"b":2}')]],
    ['object arguments after text fragments', [fn('f', '{"a":'), fn(undefined, { a: 1 })]],
    ['a second, different object', [fn('f', { a: 1 }), fn(undefined, { a: 2 })]],
    ['arguments of another type', [fn('f', 42)]],
  ])('fails closed on %s', (_label, deltas) => {
    const assembler = new ToolCallAssembler();
    let caught: unknown;
    try {
      for (const delta of deltas) assembler.accept({ index: 0, ...delta });
    } catch (error) {
      caught = error;
    }
    expect(isOpenAIError(caught, 'INVALID_RESPONSE')).toBe(true);
  });

  it('synthesises ids for missing ones, stable and clear of ids already taken', () => {
    const deltas = [{ index: 0, ...fn('a', '{}') }, { index: 1, id: 'call_3_1', ...fn('b', '{}') }, { index: 2, id: '', ...fn('c', '{}') }];
    const ids = { turn: 3, taken: new Set(['call_3_0']) };
    const first = assemble(deltas, ids).calls.map((call) => call.id);
    expect(first).toEqual(['call_3_0_2', 'call_3_1', 'call_3_2']);
    expect(assemble(deltas, ids).calls.map((call) => call.id)).toEqual(first);
    expect(new Set(first).size).toBe(3);
  });
});
