import type { ModelStreamEvent } from '@weir/core';
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import type { IdleTimer } from './idle-timer.js';
import { isErrorPayload } from './error-payload.js';
import { OpenAIError } from './openai-error.js';
import type { TurnReader } from './turn-reader.js';

/** What reading one streamed answer needs besides the bytes. */
export interface SseTurnContext {
  readonly idle: IdleTimer;
  /** The error a provider sent inside the stream (`{ error: ... }` or `{ object: 'error', ... }`), as an `OpenAIError`. */
  readonly providerError: (payload: unknown) => OpenAIError;
  /** True when a failure after a complete answer may be ignored (anything but the caller's abort). */
  readonly ignorableAfterComplete: (error: unknown) => boolean;
  readonly display: string;
}

/** One event, or a buffered line, may not grow past this (a runaway server must not eat the heap). */
const MAX_BUFFER_CHARS = 16 * 1024 * 1024;

/**
 * Reads a Server-Sent Events body into `turn`, yielding deltas as they arrive. Decoding is the
 * spec's (eventsource-parser): CR and CRLF line ends, comments, multi-line data, UTF-8 split across
 * chunks. Comments and blank lines only keep the idle timer alive. Reading stops at `data: [DONE]`,
 * even if the server keeps the connection open; at end of input the decoder is flushed, because a
 * cut stream's last event has no closing blank line.
 *
 * Returns once the answer is complete; throws `OpenAIError('INCOMPLETE_STREAM')` (retryable) when
 * the input ends or breaks before every choice finished, `INVALID_RESPONSE` for a data event that
 * is not JSON, the provider's error for an error event, and rethrows read failures as they are.
 */
export async function* readSseTurn(body: ReadableStream<Uint8Array>, turn: TurnReader, context: SseTurnContext): AsyncGenerator<ModelStreamEvent, void> {
  const pending: ModelStreamEvent[] = [];
  let failure: unknown;
  let stopped = false;
  let flushing = false;
  let events = 0;

  const onEvent = (message: EventSourceMessage) => {
    if (stopped || failure !== undefined) return;
    try {
      const data = message.data.trim();
      if (data === '[DONE]') {
        turn.markDone();
        stopped = true;
        return;
      }
      if (data === '') return;
      events++;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch (error) {
        // At end of input a half-sent last line is expected: the answer is incomplete, reported below.
        if (flushing) return;
        throw new OpenAIError('INVALID_RESPONSE', `The stream from ${context.display} sent a data event that is not JSON (${(error as Error).message}).`, { cause: error });
      }
      // An error object fails the attempt wherever it comes, text before it or not: a [DONE] after
      // it must not turn what was said so far into a finished answer.
      if (isErrorPayload(chunk)) throw context.providerError(chunk);
      if (message.event === 'error') throw context.providerError({ error: chunk });
      pending.push(...turn.acceptChunk(chunk, message.event));
      if (turn.failure !== undefined) throw context.providerError(turn.failure);
      if (turn.ended) stopped = true;
    } catch (error) {
      failure = error;
    }
  };
  const onError = (error: ParseError) => {
    if (error.type === 'max-buffer-size-exceeded') {
      failure = new OpenAIError('INVALID_RESPONSE', `The stream from ${context.display} sent an event longer than ${MAX_BUFFER_CHARS} characters.`);
    } else if (error.type === 'unknown-field' && error.line?.trimStart().startsWith('{')) {
      // Some servers write a bare JSON error line into the stream, without `data:`.
      onEvent({ data: error.line, event: undefined, id: undefined });
    }
  };
  const parser = createParser({ onEvent, onError, maxBufferSize: MAX_BUFFER_CHARS });
  const reader = body.getReader();
  const decoder = new TextDecoder();

  try {
    while (!stopped) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (error) {
        // A connection that breaks (or goes idle) after the answer finished costs only the usage chunk.
        if (turn.complete && context.ignorableAfterComplete(error)) break;
        throw error;
      }
      if (read.done) {
        flushing = true;
        // Two line ends dispatch whatever event the server left unterminated.
        parser.feed(`${decoder.decode()}\n\n`);
      } else {
        context.idle.touch();
        parser.feed(decoder.decode(read.value, { stream: true }));
      }
      if (failure !== undefined) throw failure;
      while (pending.length > 0) {
        // The consumer's time is not the server's silence.
        context.idle.pause();
        yield pending.shift()!;
        context.idle.touch();
      }
      if (read.done) break;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }

  if (!turn.complete) {
    throw new OpenAIError(
      'INCOMPLETE_STREAM',
      `The stream from ${context.display} ended before the answer finished (no finish after ${events} data events). Nothing from this attempt was returned.`,
      { retryable: true },
    );
  }
}
