import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { createAgent, createHarness, definePlugin, type LanguageModel, type Logger, type ModelCallRun, type TurnInfo } from '../../src/index.js';

const scope = new AsyncLocalStorage<string>();

/** A model that reports the scope it runs in, in its answer. */
const scopeReporter = (): LanguageModel => ({
  id: 'mock:scope',
  async complete() {
    await new Promise((resolve) => setImmediate(resolve));
    return { text: `in ${scope.getStore() ?? 'no scope'}`, toolCalls: [], finishReason: 'stop' };
  },
});

function recordingLogger(): { logger: Logger; errors: { fields: Record<string, unknown>; message: string }[] } {
  const errors: { fields: Record<string, unknown>; message: string }[] = [];
  const logger: Logger = {
    error: (fields: object, message?: string) => void errors.push({ fields: fields as Record<string, unknown>, message: message ?? '' }),
    warn: () => undefined,
    info: () => undefined,
    debug: () => undefined,
    trace: () => undefined,
    child: () => logger,
  } as unknown as Logger;
  return { logger, errors };
}

describe('the modelCall hook: a wrap around each model call of a turn', () => {
  it('runs the call inside what the tap returns, each tap wrapping the last; the tap gets the turn', async () => {
    const harness = createHarness();
    const turns: TurnInfo[] = [];
    await harness.use(
      definePlugin({
        name: 'scoper',
        setup(ctx) {
          ctx.hooks.modelCall.tap('inner', (run, turn) => (turns.push(turn), () => scope.run('inner', run)));
          ctx.hooks.modelCall.tap('outer', (run) => () => scope.run('outer', () => run()));
        },
      }),
    );
    const result = await createAgent({ model: scopeReporter(), harness }).turn('hi');
    // The outer tap wraps the inner one: the innermost scope is what the model sees.
    expect(result.text).toBe('in inner');
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ modelId: 'mock:scope', run: { id: expect.any(String) } });
  });

  it('a tap that throws or returns what is not a function is logged and skipped; the call runs', async () => {
    const { logger, errors } = recordingLogger();
    const harness = createHarness({ logger });
    await harness.use(
      definePlugin({
        name: 'broken',
        setup(ctx) {
          ctx.hooks.modelCall.tap('throws', () => {
            throw new Error('no scope today');
          });
          ctx.hooks.modelCall.tap('not-a-function', () => 42 as unknown as ModelCallRun);
        },
      }),
    );
    expect((await createAgent({ model: scopeReporter(), harness }).turn('hi')).text).toBe('in no scope');
    expect(errors.map((error) => [error.fields.tap, error.fields.hook])).toEqual([
      ['throws', 'modelCall'],
      ['not-a-function', 'modelCall'],
    ]);
  });

  it('what the wrapped run rejects with is the model call failing (MODEL_CALL_FAILED); a removed tap no longer wraps', async () => {
    const harness = createHarness();
    const wrap = vi.fn((_run: ModelCallRun) => () => Promise.reject(new Error('wrapped call refused')));
    let undo = () => undefined as void;
    await harness.use(definePlugin({ name: 'refuser', setup: (ctx) => void (undo = ctx.hooks.modelCall.tap(wrap)) }));
    await expect(createAgent({ model: scopeReporter(), harness }).turn('hi')).rejects.toMatchObject({ code: 'MODEL_CALL_FAILED', message: expect.stringContaining('wrapped call refused') });
    undo();
    expect((await createAgent({ model: scopeReporter(), harness }).turn('hi')).text).toBe('in no scope');
    expect(wrap).toHaveBeenCalledTimes(1);
  });
});
