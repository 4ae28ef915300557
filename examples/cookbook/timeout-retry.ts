// Recipe: a timeout-and-retry policy wrapping the execute stage. Each attempt gets its own
// deadline; failed attempts are retried with backoff; the call's signal stops everything.
import pRetry from 'p-retry';
import pTimeout from 'p-timeout';
import { createHarness, definePlugin, defineTool } from '@weir/core';
import { describeResult, runIfMain } from './run-if-main.js';

export function retryPolicy(options: { tools: readonly string[]; attemptTimeoutMs: number; retries: number }) {
  return definePlugin({
    name: 'retry-policy',
    setup(ctx) {
      ctx.hooks.execute.tap((dispatch, context) => {
        if (!options.tools.includes(context.toolName)) return undefined;
        return (args, exec) =>
          pRetry((attempt) => pTimeout(dispatch(args, { ...exec, attempt }), { milliseconds: options.attemptTimeoutMs }), {
            retries: options.retries,
            minTimeout: 5,
            signal: exec.signal,
          });
      });
    },
  });
}

// A service that hangs on its first two requests, then answers.
let requests = 0;
const fetchQuote = defineTool({
  name: 'fetch_quote',
  description: 'Fetches the quote of the day.',
  tier: 'read-only',
  parameters: { type: 'object', properties: {} },
  execute: async (_args, exec) => {
    requests += 1;
    if (requests <= 2) return new Promise<string>(() => undefined);
    return `"Simplicity is prerequisite for reliability." (answered on attempt ${exec.attempt})`;
  },
});

export async function main(): Promise<string[]> {
  requests = 0;
  const harness = createHarness();
  harness.tools.register(fetchQuote);
  await harness.use(retryPolicy({ tools: ['fetch_quote'], attemptTimeoutMs: 30, retries: 3 }));
  const result = await harness.executeToolCall({ id: 'q1', name: 'fetch_quote', arguments: {} });
  return [describeResult('fetch_quote', result), `service requests: ${requests}`];
}

await runIfMain(import.meta.url, main);
