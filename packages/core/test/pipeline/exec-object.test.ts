import { describe, expect, it } from 'vitest';
import { createHarness, definePlugin, defineTool, type Logger, type ToolExecution } from '@weir/core';

const params = { type: 'object', properties: {} } as const;

/** A tool that reads its exec only after `late` ms, then waits for its signal to abort. */
function lateReader(seen: ToolExecution[], late: number, started: () => void = () => undefined) {
  return defineTool({
    name: 'late',
    description: 'Reads its exec late.',
    tier: 'read-only',
    parameters: params,
    timeoutMs: 30,
    execute: (_args, exec) =>
      new Promise((resolve) => {
        started();
        setTimeout(() => {
          seen.push(exec);
          resolve('done');
        }, late);
      }),
  });
}

describe('the exec object a body gets', () => {
  it("a wrapper's { ...exec, extra } carries every field on: the signal that aborts at the deadline, the key, the run", async () => {
    const seen: ToolExecution[] = [];
    let outer: ToolExecution | undefined;
    const harness = createHarness();
    harness.tools.register(
      defineTool({
        name: 'wait',
        description: 'Waits for its signal.',
        tier: 'read-only',
        parameters: params,
        timeoutMs: 20,
        execute: (_args, exec) => {
          seen.push(exec);
          return new Promise((_resolve, reject) => exec.signal.addEventListener('abort', () => reject(exec.signal.reason)));
        },
      }),
    );
    await harness.use(
      definePlugin({
        name: 'spreader',
        setup(ctx) {
          ctx.hooks.execute.tap('spreader', (dispatch) => (args, exec) => {
            outer = exec;
            return dispatch(args, { ...exec, extra: 1 } as ToolExecution);
          });
        },
      }),
    );
    const result = await harness.executeToolCall({ id: 'c1', name: 'wait', arguments: {} }, { run: { id: 'run-1' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    const [body] = seen;
    expect(body).not.toBe(outer);
    expect((body as unknown as { extra: number }).extra).toBe(1);
    expect(body!.signal).toBeInstanceOf(AbortSignal);
    expect(body!.signal.aborted).toBe(true);
    expect(body!.callKey).toBe(outer!.callKey);
    expect(body!.callKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(body!.run).toEqual({ id: 'run-1' });
    expect(Object.keys(outer!)).toEqual(expect.arrayContaining(['signal', 'onAbort', 'callId', 'callKey', 'run', 'toolName', 'attempt', 'logger', 'progress']));
    expect(body!.onAbort).toBe(outer!.onAbort);
  });

  it('a signal first read after the deadline is already aborted, with the deadline as its reason', async () => {
    const seen: ToolExecution[] = [];
    const harness = createHarness();
    harness.tools.register(lateReader(seen, 80));
    expect(await harness.executeToolCall({ id: 'c1', name: 'late', arguments: {} })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(seen[0]!.signal.aborted).toBe(true);
    expect(String(seen[0]!.signal.reason)).toMatch(/deadline of 30 ms passed/);
  });

  it("a signal first read after the caller's abort carries the caller's reason", async () => {
    const seen: ToolExecution[] = [];
    const harness = createHarness();
    const caller = new AbortController();
    harness.tools.register(lateReader(seen, 40, () => caller.abort(new Error('user pressed Ctrl-C'))));
    const running = harness.executeToolCall({ id: 'c1', name: 'late', arguments: {} }, { signal: caller.signal });
    expect(await running).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(seen[0]!.signal.reason).toEqual(new Error('user pressed Ctrl-C'));
  });

  it('deadlines of many calls, each its own length, all expire on the shared watch, in time', async () => {
    const harness = createHarness();
    const lengths = [5, 60, 15, 40, 25, 5, 80, 10];
    lengths.forEach((timeoutMs, index) =>
      harness.tools.register(
        defineTool({ name: `t${index}`, description: 'Never ends.', tier: 'read-only', parameters: params, timeoutMs, execute: () => new Promise(() => undefined) }),
      ),
    );
    const started = performance.now();
    const results = await Promise.all(
      lengths.map(async (timeoutMs, index) => {
        const result = await harness.executeToolCall({ id: `c${index}`, name: `t${index}`, arguments: {} });
        return { timeoutMs, code: result.ok ? 'ok' : result.error.code, after: performance.now() - started };
      }),
    );
    for (const { timeoutMs, code, after } of results) {
      expect(code).toBe('TIMEOUT');
      expect(after).toBeGreaterThanOrEqual(timeoutMs - 1);
    }
  });

  describe('onAbort: hearing of the interruption without a signal', () => {
    /** A tool that listens through onAbort, then never ends on its own. */
    function listener(heard: unknown[], extra: { timeoutMs?: number; onExec?: (exec: ToolExecution) => void } = {}) {
      return defineTool({
        name: 'listen',
        description: 'Listens through onAbort.',
        tier: 'read-only',
        parameters: params,
        timeoutMs: extra.timeoutMs ?? 30,
        execute: (_args, exec) => {
          extra.onExec?.(exec);
          exec.onAbort!((reason) => heard.push(reason));
          return new Promise(() => undefined);
        },
      });
    }

    it('tells the listener once, with the deadline as the reason', async () => {
      const heard: unknown[] = [];
      const harness = createHarness();
      harness.tools.register(listener(heard));
      expect(await harness.executeToolCall({ id: 'c1', name: 'listen', arguments: {} })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
      expect(heard).toHaveLength(1);
      expect(String(heard[0])).toMatch(/deadline of 30 ms passed/);
    });

    it("tells the listener the caller's reason, and a listener added after the abort at once", async () => {
      const heard: unknown[] = [];
      let exec: ToolExecution | undefined;
      const harness = createHarness();
      harness.tools.register(listener(heard, { timeoutMs: 5_000, onExec: (seen) => (exec = seen) }));
      const caller = new AbortController();
      const running = harness.executeToolCall({ id: 'c1', name: 'listen', arguments: {} }, { signal: caller.signal });
      await new Promise((resolve) => setTimeout(resolve, 10));
      caller.abort(new Error('user pressed Ctrl-C'));
      expect(await running).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
      expect(heard).toEqual([new Error('user pressed Ctrl-C')]);
      const late: unknown[] = [];
      exec!.onAbort!((reason) => late.push(reason));
      expect(late).toEqual([new Error('user pressed Ctrl-C')]);
    });

    it('makes no AbortSignal: the signal is made only when read, and then it is aborted too', async () => {
      const made: AbortSignal[] = [];
      const harness = createHarness();
      const original = Object.getOwnPropertyDescriptor(AbortController.prototype, 'signal')!;
      Object.defineProperty(AbortController.prototype, 'signal', {
        ...original,
        get(this: AbortController) {
          const signal = original.get!.call(this) as AbortSignal;
          if (!made.includes(signal)) made.push(signal);
          return signal;
        },
      });
      let exec: ToolExecution | undefined;
      try {
        harness.tools.register(listener([], { onExec: (seen) => (exec = seen) }));
        await harness.executeToolCall({ id: 'c1', name: 'listen', arguments: {} });
        expect(made).toEqual([]);
      } finally {
        Object.defineProperty(AbortController.prototype, 'signal', original);
      }
      expect(exec!.signal.aborted).toBe(true);
    });

    it('a removed listener is not told', async () => {
      const heard: unknown[] = [];
      const harness = createHarness();
      harness.tools.register(
        defineTool({
          name: 'removes',
          description: 'Listens, then stops listening.',
          tier: 'read-only',
          parameters: params,
          timeoutMs: 20,
          execute: (_args, exec) => {
            const stop = exec.onAbort!((reason) => heard.push(reason));
            stop();
            return new Promise(() => undefined);
          },
        }),
      );
      expect(await harness.executeToolCall({ id: 'c1', name: 'removes', arguments: {} })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
      expect(heard).toEqual([]);
    });

    it('a listener that throws is logged; the others are still told and the call still settles', async () => {
      const heard: unknown[] = [];
      const errors: unknown[] = [];
      const logger = { debug() {}, info() {}, warn() {}, error: (fields: unknown) => errors.push(fields), child: () => logger } as unknown as Logger;
      const harness = createHarness({ logger });
      harness.tools.register(
        defineTool({
          name: 'throws',
          description: 'Its first listener throws.',
          tier: 'read-only',
          parameters: params,
          timeoutMs: 20,
          execute: (_args, exec) => {
            exec.onAbort!(() => {
              throw new Error('listener broke');
            });
            exec.onAbort!((reason) => heard.push(reason));
            return new Promise(() => undefined);
          },
        }),
      );
      expect(await harness.executeToolCall({ id: 'c1', name: 'throws', arguments: {} })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
      expect(heard).toHaveLength(1);
      expect(errors).toEqual([expect.objectContaining({ err: new Error('listener broke'), tool: 'throws' })]);
    });

    it('a call nothing can interrupt never tells its listeners', async () => {
      const heard: unknown[] = [];
      const harness = createHarness({ defaultTimeoutMs: Infinity });
      harness.tools.register(
        defineTool({
          name: 'quick',
          description: 'Listens and returns.',
          tier: 'read-only',
          parameters: params,
          execute: (_args, exec) => {
            exec.onAbort!((reason) => heard.push(reason))();
            return 'done';
          },
        }),
      );
      expect(await harness.executeToolCall({ id: 'c1', name: 'quick', arguments: {} })).toMatchObject({ ok: true, value: 'done' });
      expect(heard).toEqual([]);
    });
  });
});
