import type { ToolCall } from '../tools/call-context.js';
import { announceResult, tellJournal } from './announce-result.js';
import { runToolCall } from './run-tool-call.js';
import type { ExecuteOptions } from './execute-options.js';
import type { HarnessRuntime } from '../harness-runtime.js';
import type { PipelineContext, RunSource } from './pipeline-context.js';
import type { ToolResult } from '../tools/tool-result.js';
import { hasTaps } from '../plugins/hooks.js';

/** Default number of calls of one batch that run at the same time. */
export const DEFAULT_TOOL_CONCURRENCY = 8;

/**
 * Runs a batch with at most `concurrency` calls at a time. Results come back, and are announced
 * to `result` observers (then to the run's journal, if any), in call order, whatever order they finish in: each is announced as soon
 * as every call before it has been.
 */
export async function runToolCalls(
  runtime: HarnessRuntime,
  calls: readonly ToolCall[],
  options: ExecuteOptions | undefined,
  concurrency: number,
): Promise<ToolResult[]> {
  const journal = options?.journal;
  const settled: ({ result: ToolResult; context: PipelineContext } | undefined)[] = new Array(calls.length);
  // One run for the whole batch: made when a call first reads it, unless the caller gave one.
  const runs: RunSource = { run: options?.run };
  // Observed calls measure their wait for a free slot from here.
  if (hasTaps(runtime.hooks.call)) runs.startedAt = performance.now();
  let nextToStart = 0;
  let nextToAnnounce = 0;

  const announceReady = () => {
    while (nextToAnnounce < calls.length && settled[nextToAnnounce] !== undefined) {
      const { result, context } = settled[nextToAnnounce]!;
      announceResult(runtime, result, context);
      if (journal !== undefined) tellJournal(journal, result, context);
      nextToAnnounce += 1;
    }
  };

  const worker = async () => {
    while (nextToStart < calls.length) {
      const index = nextToStart++;
      settled[index] = await runToolCall(runtime, calls[index]!, options, runs);
      announceReady();
    }
  };

  const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, calls.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return settled.map((entry) => entry!.result);
}
