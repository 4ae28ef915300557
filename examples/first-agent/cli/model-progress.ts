import type { AgentEvent } from '@weir/core';
import type { RetryEvent } from '@weir/llm-openai';
import { oneLineError } from './one-line-error.js';

/** What the examples show while they wait for a model, on standard error. */
export interface ModelProgress {
  /** For `createOpenAIModel({ onRetry })`: one line per failed attempt, before its wait. */
  readonly onRetry: (event: RetryEvent) => void;
  /** Wraps a turn's `onEvent`: a model call that stays silent is reported every `noticeMs`. */
  readonly watch: (onEvent?: (event: AgentEvent) => void) => (event: AgentEvent) => void;
  /** Stops the notices (call it when the turn ends, even when it failed). */
  readonly stop: () => void;
}

/**
 * Makes waiting visible: each retry says what failed and how long the wait is, and a model call
 * that has sent nothing for `noticeMs` says so (again each `noticeMs`), so a stalled server is
 * never a silent wait. Notices go to standard error: standard output stays the transcript.
 */
export function modelProgress(noticeMs: number, write: (line: string) => void = (line) => console.error(line)): ModelProgress {
  let timer: NodeJS.Timeout | undefined;
  let since = 0;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const restart = () => {
    stop();
    since = Date.now();
    timer = setInterval(() => write(`[waiting] ${seconds(Date.now() - since)} without a word from the model...`), noticeMs);
    // A notice never keeps the program alive on its own.
    timer.unref();
  };
  return {
    onRetry: ({ attempt, delayMs, error }) => {
      write(`[retry] attempt ${attempt} failed: ${oneLineError(error)} Trying again in ${seconds(delayMs)}.`);
      if (timer !== undefined) since = Date.now() + delayMs;
    },
    watch: (onEvent) => (event) => {
      if (event.type === 'model-call-start' || event.type === 'text-delta') restart();
      else if (event.type === 'model-call-end' || event.type === 'turn-end') stop();
      onEvent?.(event);
    },
    stop,
  };
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
