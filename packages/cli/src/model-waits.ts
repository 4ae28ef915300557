import type { AgentEvent } from '@weir/core';
import type { RetryEvent } from '@weir/core';
import { oneLineError } from './one-line-error.js';

/** What is shown while weir waits for the model. */
export interface ModelWaits {
  /** For the model's `onRetry`: `[retrying in 2 s: rate limited]` before each wait. */
  readonly onRetry: (event: RetryEvent) => void;
  /** Sees the turn's events: a model call silent for `noticeMs` is reported, again every `noticeMs`. */
  readonly onEvent: (event: AgentEvent) => void;
  /** Stops the notices (the turn ended, however). */
  readonly stop: () => void;
}

/**
 * Makes waiting visible: each retry says why and for how long, and a model call that sends nothing
 * for `noticeMs` says so (`[waiting] 10 s without a word from the model...`), so a stalled server
 * is never a silent wait. The timer never keeps the process alive.
 */
export function modelWaits(write: (line: string) => void, noticeMs = 10_000): ModelWaits {
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
    timer.unref();
  };
  return {
    onRetry: ({ delayMs, error }) => {
      write(`[retrying in ${seconds(delayMs)}: ${reason(error)}]`);
      if (timer !== undefined) since = Date.now() + delayMs;
    },
    onEvent: (event) => {
      if (event.type === 'model-call-start' || event.type === 'text-delta') restart();
      else if (event.type === 'model-call-end' || event.type === 'turn-end') stop();
    },
    stop,
  };
}

/** "rate limited", "provider unavailable": the error's code in words, else its one-line message. */
function reason(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code.toLowerCase().replace(/_/g, ' ');
  return oneLineError(error).replace(/\.$/, '');
}

function seconds(ms: number): string {
  const value = Math.max(0, ms) / 1000;
  return `${Number.isInteger(value) || value >= 10 ? Math.round(value) : value.toFixed(1)} s`;
}
