import { describe, expect, it } from 'vitest';
import { defineTool, HarnessError, isHarnessError, ToolCallError, isToolCallError } from '@weir/core';
import { harnessWith } from '../support.js';

// What another copy of @weir/core (a plugin's own node_modules) would throw: same brand, other class.
function foreignToolCallError(code: string, message: string): Error {
  const error = new Error(message) as Error & { code: string };
  error.name = 'ToolCallError';
  error.code = code;
  Object.defineProperty(error, Symbol.for('weir.ToolCallError'), { value: true });
  return error;
}

describe('one core, many copies', () => {
  it('a ToolCallError from another copy keeps its code', async () => {
    const harness = await harnessWith([defineTool({
      name: 'fail',
      description: 'Fails with a code of its own.',
      tier: 'read-only',
      parameters: { type: 'object' },
      execute: () => {
        throw foreignToolCallError('NOT_FOUND', 'no such thing');
      },
    })]);
    expect(await harness.executeToolCall({ id: 'a', name: 'fail', arguments: {} })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: 'no such thing' } });
  });

  it('a ToolCallError from another copy is not retried', async () => {
    let runs = 0;
    const harness = await harnessWith([defineTool({
      name: 'fail',
      description: 'Fails with a code of its own.',
      tier: 'read-only',
      parameters: { type: 'object' },
      retry: { retries: 3, minTimeoutMs: 1 },
      execute: () => {
        runs += 1;
        throw foreignToolCallError('NOT_FOUND', 'no such thing');
      },
    })]);
    await harness.executeToolCall({ id: 'a', name: 'fail', arguments: {} });
    expect(runs).toBe(1);
  });

  it('brands are recognised across copies, for both error classes', () => {
    const foreignHarnessError = Object.assign(new Error('x'), { code: 'SLOT_TAKEN', [Symbol.for('weir.HarnessError')]: true });
    expect(isHarnessError(foreignHarnessError)).toBe(true);
    expect(isHarnessError(new HarnessError('SLOT_TAKEN', 'x'))).toBe(true);
    expect(isHarnessError(new Error('x'))).toBe(false);
    expect(isToolCallError(foreignToolCallError('A', 'b'))).toBe(true);
    expect(isToolCallError(new ToolCallError('A', 'b'))).toBe(true);
    expect(isToolCallError({ code: 'A' })).toBe(false);
  });
});
