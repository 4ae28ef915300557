import { describe, expect, it, vi } from 'vitest';
import { createHarness, DEFAULT_TOOL_TIMEOUT_MS, defineTool, ToolCallError, type ToolExecution } from '@weir/core';
import { deferred, echoTool, harnessWith } from '../support.js';

const params = { type: 'object', properties: {} } as const;

describe('stage 2: dispatch (timeout, cancellation, retry)', () => {
  it('has a documented default deadline, and a per-tool timeoutMs ends a slow call with TIMEOUT', async () => {
    expect(DEFAULT_TOOL_TIMEOUT_MS).toBe(120_000);
    let signal: AbortSignal | undefined;
    const slow = defineTool({
      name: 'slow',
      description: 'Takes its time.',
      tier: 'read-only',
      parameters: params,
      timeoutMs: 20,
      execute: (_args, exec) => {
        signal = exec.signal;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 5_000);
          exec.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(exec.signal.reason);
          });
        });
      },
    });
    const harness = await harnessWith([slow]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'slow', arguments: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' }, attempts: 1 });
    expect(signal?.aborted).toBe(true);
  });

  it("the harness's defaultTimeoutMs applies to tools without their own", async () => {
    const { tool } = echoTool({ execute: () => new Promise(() => undefined) });
    const harness = await harnessWith([tool], undefined, { defaultTimeoutMs: 15 });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });

  it("aborts the body's signal on the caller's signal and answers ABORTED", async () => {
    const started = deferred();
    let signal: AbortSignal | undefined;
    const { tool } = echoTool({
      execute: (_args: unknown, exec: ToolExecution) => {
        signal = exec.signal;
        started.resolve();
        return new Promise(() => undefined);
      },
    });
    const harness = await harnessWith([tool]);
    const controller = new AbortController();
    const pending = harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { signal: controller.signal });
    await started.promise;
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    expect(signal?.aborted).toBe(true);
  });

  it('does not run the body at all when the signal is already aborted', async () => {
    const { tool, body } = echoTool();
    const harness = await harnessWith([tool]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, error: { code: 'ABORTED' }, attempts: 0 });
    expect(body).not.toHaveBeenCalled();
  });

  it('does not let a body that ignores its signal hold the caller, and drops its late value', async () => {
    const release = deferred<string>();
    let bodySettled = false;
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'Ignores cancellation.',
      tier: 'read-only',
      parameters: params,
      timeoutMs: 10,
      execute: async () => {
        const value = await release.promise;
        bodySettled = true;
        return value;
      },
    });
    const harness = await harnessWith([stubborn]);
    const observed: unknown[] = [];
    harness.hooks.result.tap('observer', (result) => void observed.push(result));
    const result = await harness.executeToolCall({ id: 'c1', name: 'stubborn', arguments: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(bodySettled).toBe(false);
    release.resolve('too late');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(bodySettled).toBe(true);
    expect(observed).toEqual([result]);
  });

  it('retries only a tool that declares retry, and reports the attempts', async () => {
    let runs = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails twice, then works.',
      tier: 'read-only',
      parameters: params,
      retry: { retries: 3, minTimeoutMs: 1 },
      execute: (_args, exec) => {
        runs += 1;
        if (exec.attempt < 3) throw new Error(`transient failure ${exec.attempt}`);
        return `worked on attempt ${exec.attempt}`;
      },
    });
    let plainRuns = 0;
    const plain = defineTool({
      name: 'plain',
      description: 'Fails once.',
      tier: 'read-only',
      parameters: params,
      execute: () => {
        plainRuns += 1;
        throw new Error('transient failure');
      },
    });
    const harness = await harnessWith([flaky, plain]);
    const retried = await harness.executeToolCall({ id: 'c1', name: 'flaky', arguments: {} });
    expect(retried).toMatchObject({ ok: true, content: 'worked on attempt 3', attempts: 3 });
    expect(runs).toBe(3);
    const once = await harness.executeToolCall({ id: 'c2', name: 'plain', arguments: {} });
    expect(once).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED' }, attempts: 1 });
    expect(plainRuns).toBe(1);
  });

  it('keeps every retry inside the deadline', async () => {
    let runs = 0;
    const hopeless = defineTool({
      name: 'hopeless',
      description: 'Always fails.',
      tier: 'read-only',
      parameters: params,
      timeoutMs: 60,
      retry: { retries: 50, minTimeoutMs: 25, maxTimeoutMs: 25 },
      execute: () => {
        runs += 1;
        throw new Error('still broken');
      },
    });
    const harness = await harnessWith([hopeless]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'hopeless', arguments: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    const runsAtResult = runs;
    expect(runsAtResult).toBeLessThan(10);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(runs).toBe(runsAtResult);
  });

  it('never retries a ToolCallError, and keeps its code', async () => {
    const body = vi.fn(() => {
      throw new ToolCallError('NOT_FOUND', 'No file at notes.txt. List the folder to see what exists.');
    });
    const tool = defineTool({ name: 'lookup', description: 'Looks a file up.', tier: 'read-only', parameters: params, retry: 5, execute: body });
    const harness = await harnessWith([tool]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'lookup', arguments: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: 'No file at notes.txt. List the folder to see what exists.' } });
    expect(body).toHaveBeenCalledTimes(1);
  });

  it('never runs (or retries) a body after DENIED or INVALID_ARGUMENTS', async () => {
    const { tool, body } = echoTool({ retry: 3 });
    const harness = await harnessWith([tool], (ctx) => void ctx.guards.add((call) => (call.arguments.text === 'no' ? { decision: 'deny' } : undefined)));
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'no' } })).toMatchObject({ ok: false, error: { code: 'DENIED' }, attempts: 0 });
    expect(await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: { text: 5 } })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' }, attempts: 0 });
    expect(body).not.toHaveBeenCalled();
  });

  it('turns a thrown error into EXECUTION_FAILED with a short message and no stack', async () => {
    const { tool } = echoTool({
      execute: () => {
        const error = new Error('ENOENT: no such file or directory') as Error & { code: string };
        error.code = 'ENOENT';
        throw error;
      },
    });
    const harness = await harnessWith([tool]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED' } });
    if (!result.ok) {
      expect(result.error.message).toContain('ENOENT: no such file or directory');
      expect(result.error.message).not.toMatch(/\n\s+at /);
    }
  });

  it('puts duration and attempts on the result', async () => {
    const { tool } = echoTool({ execute: async (args: { text: string }) => new Promise((resolve) => setTimeout(() => resolve(args.text), 15)) });
    const harness = createHarness();
    harness.tools.register(tool);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.attempts).toBe(1);
    expect(result.durationMs).toBeGreaterThanOrEqual(10);
  });

  it('lets execute taps wrap the dispatcher, outermost last', async () => {
    const order: string[] = [];
    const { tool } = echoTool({ execute: async (args: { text: string }) => (order.push('body'), args.text) });
    const harness = await harnessWith([tool], (ctx) => {
      ctx.hooks.execute.tap('inner', (dispatch) => async (args, exec) => {
        order.push('inner');
        return `<${String(await dispatch(args, exec))}>`;
      });
      ctx.hooks.execute.tap('outer', (dispatch) => async (args, exec) => {
        order.push('outer');
        return `[${String(await dispatch(args, exec))}]`;
      });
    });
    expect(await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: true, content: '[<x>]' });
    expect(order).toEqual(['outer', 'inner', 'body']);
  });
});
