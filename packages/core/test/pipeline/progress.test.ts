import { describe, expect, it } from 'vitest';
import { createAgent, createHarness, defineTool, type AgentEvent, type LanguageModel, type ToolExecution, type ToolProgress } from '@weir/core';
import { harnessWith, recordingLogger } from '../support.js';

const params = { type: 'object', properties: {} } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tool whose body is `body`, read-only, no arguments. */
const tool = (body: (exec: ToolExecution) => unknown, extra: { timeoutMs?: number; idleTimeoutMs?: number } = {}) =>
  defineTool({ name: 'work', description: 'Works for a while.', tier: 'read-only', parameters: params, ...extra, execute: (_args, exec) => body(exec) });

const call = { id: 'c1', name: 'work', arguments: {} };

describe('progress: exec.progress while a tool runs', () => {
  it('reaches the progress observers as it happens, in order, with the call context, and never changes the result', async () => {
    const seen: string[] = [];
    let late!: ToolExecution['progress'];
    const harness = await harnessWith(
      [
        tool(async (exec) => {
          exec.progress({ message: 'start', progress: 0, total: 2 });
          await sleep(5);
          exec.progress({ message: 'half', progress: 1, total: 2 });
          seen.push('body returns');
          late = exec.progress;
          return 'done';
        }),
      ],
      (ctx) => {
        ctx.hooks.progress.tap((update, context) => void seen.push(`${context.callId} ${update.message} ${update.progress}/${update.total}`));
        ctx.hooks.result.tap(() => void seen.push('result'));
      },
      { progressIntervalMs: 0 },
    );
    const result = await harness.executeToolCall(call);
    expect(result).toMatchObject({ ok: true, content: 'done' });
    expect(seen).toEqual(['c1 start 0/2', 'c1 half 1/2', 'body returns', 'result']);
    // After the call settled, a report is dropped: nobody hears it.
    late({ message: 'too late' });
    expect(seen).toHaveLength(4);
  });

  it('delivers a frozen copy: the body may reuse its object', async () => {
    const updates: ToolProgress[] = [];
    const harness = await harnessWith(
      [
        tool((exec) => {
          const report: { message: string; extra?: number } = { message: 'a', extra: 1 };
          exec.progress(report);
          report.message = 'b';
          exec.progress(report);
          return 'ok';
        }),
      ],
      (ctx) => void ctx.hooks.progress.tap((update) => void updates.push(update)),
      { progressIntervalMs: 0 },
    );
    await harness.executeToolCall(call);
    expect(updates).toEqual([{ message: 'a' }, { message: 'b' }]);
    expect(Object.isFrozen(updates[0])).toBe(true);
  });

  it('thins a burst: the first at once, then at most one per interval, the last one kept, all in order', async () => {
    const progress: number[] = [];
    const harness = await harnessWith(
      [
        tool(async (exec) => {
          for (let i = 1; i <= 10_000; i++) {
            exec.progress({ progress: i, total: 10_000 });
            if (i % 2_500 === 0) await sleep(60);
          }
          return 'ok';
        }),
      ],
      (ctx) => void ctx.hooks.progress.tap((update) => void progress.push(update.progress!)),
      { progressIntervalMs: 50 },
    );
    await harness.executeToolCall(call);
    expect(progress[0]).toBe(1);
    expect(progress.at(-1)).toBe(10_000);
    expect(progress.length).toBeLessThan(20);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('costs nothing when nobody observes: every call shares one checking function', async () => {
    const seen = new Set<unknown>();
    const harness = await harnessWith([tool((exec) => void seen.add(exec.progress))]);
    await harness.executeToolCall(call);
    await harness.executeToolCall({ ...call, id: 'c2' });
    expect(seen.size).toBe(1);
  });

  it('refuses a malformed report with a clear error, observed or not', async () => {
    for (const observed of [false, true]) {
      const harness = await harnessWith(
        [tool((exec) => exec.progress({ progress: Number.NaN }))],
        observed ? (ctx) => void ctx.hooks.progress.tap(() => undefined) : undefined,
      );
      const result = await harness.executeToolCall(call);
      expect(result).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED' } });
      expect(result.content).toContain('progress must be a finite number');
    }
  });

  it('logs an observer that throws, and the call goes on', async () => {
    const { logger, records } = recordingLogger();
    const harness = createHarness({ logger, progressIntervalMs: 0 });
    harness.tools.register(tool((exec) => (exec.progress({ message: 'x' }), 'ok')));
    harness.hooks.progress.tap('broken', () => {
      throw new Error('observer bug');
    });
    const result = await harness.executeToolCall(call);
    expect(result).toMatchObject({ ok: true, content: 'ok' });
    expect(records.some((record) => record.level === 'error' && String(record.args[1]).includes('broken'))).toBe(true);
  });

  it("gives a run's own listener the reports too (ExecuteOptions.onProgress)", async () => {
    const heard: string[] = [];
    const harness = createHarness({ progressIntervalMs: 0 });
    harness.tools.register(tool((exec) => (exec.progress({ message: 'step' }), 'ok')));
    await harness.executeToolCall(call, { onProgress: (update, context) => void heard.push(`${context.toolName}: ${update.message}`) });
    expect(heard).toEqual(['work: step']);
  });
});

describe('progress: the idle deadline', () => {
  it('stops a call that reports nothing for idleTimeoutMs, renewed by each report', async () => {
    const harness = await harnessWith([
      tool(
        async (exec) => {
          for (let i = 0; i < 4; i++) {
            await sleep(40);
            exec.progress({ progress: i });
          }
          // Then silence, longer than the idle deadline.
          await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
        },
        { idleTimeoutMs: 120, timeoutMs: 10_000 },
      ),
    ]);
    const started = performance.now();
    const result = await harness.executeToolCall(call);
    const took = performance.now() - started;
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(result.content).toContain('reported no progress for 120 ms');
    // Four renewals of 40 ms each kept it alive past one idle period.
    expect(took).toBeGreaterThan(200);
    expect(took).toBeLessThan(4_000);
  });

  it('never extends the total deadline: a call that reports forever ends at timeoutMs', async () => {
    let reports = 0;
    const harness = await harnessWith([
      tool(
        async (exec) => {
          while (!exec.signal.aborted) {
            exec.progress({ message: 'still here' });
            reports += 1;
            await sleep(10);
          }
        },
        { idleTimeoutMs: 50, timeoutMs: 300 },
      ),
    ]);
    const started = performance.now();
    const result = await harness.executeToolCall(call);
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(result.content).toContain('did not finish within 300 ms');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(reports).toBeGreaterThan(3);
  });

  it('is checked at registration', () => {
    const harness = createHarness();
    expect(() => harness.tools.register(tool(() => 'x', { idleTimeoutMs: 0 }))).toThrow(/idleTimeoutMs must be a positive number/);
  });
});

describe('progress: tool-progress agent events', () => {
  it('come between tool-start and tool-result, naming the call', async () => {
    const harness = createHarness({ progressIntervalMs: 0 });
    harness.tools.register(tool((exec) => (exec.progress({ message: 'reading', progress: 1, total: 3 }), 'done')));
    let step = 0;
    const model: LanguageModel = {
      id: 'test:progress',
      complete: async () =>
        step++ === 0
          ? { text: '', toolCalls: [{ id: 'c1', name: 'work', arguments: {} }], finishReason: 'tool_calls' }
          : { text: 'finished', toolCalls: [], finishReason: 'stop' },
    };
    const events: AgentEvent[] = [];
    const agent = createAgent({ model, harness });
    await agent.turn('go', { onEvent: (event) => void events.push(event), stream: false });
    const kinds = events.map((event) => event.type);
    expect(kinds.indexOf('tool-start')).toBeLessThan(kinds.indexOf('tool-progress'));
    expect(kinds.indexOf('tool-progress')).toBeLessThan(kinds.indexOf('tool-result'));
    expect(events.find((event) => event.type === 'tool-progress')).toEqual({
      type: 'tool-progress',
      step: 1,
      callId: 'c1',
      toolName: 'work',
      update: { message: 'reading', progress: 1, total: 3 },
    });
  });
});
