import { readBodyText, redactSecrets, type IdleTimer, type ModelStreamEvent } from '@weir/core';
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { errorFromResponse, type ErrorContext } from './error-from-response.js';
import type { GeminiTurn } from './gemini-turn.js';
import { GoogleError } from './google-error.js';
import { isRecord } from './is-record.js';

/** An error page is read this far; a whole JSON answer this far. */
const MAX_ERROR_CHARS = 64 * 1024;
const MAX_JSON_CHARS = 32 * 1024 * 1024;
/** One event may not grow past this (a runaway server must not eat the heap). */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * Reads one HTTP response into `turn`, yielding deltas as they arrive, then one `finish` event. A
 * non-2xx status is thrown as a `GoogleError`; `text/event-stream` (`alt=sse`: `data:` events, CRLF,
 * no terminator) is streamed; a JSON body (one response, or the JSON array `streamGenerateContent`
 * sends without `alt=sse`) is read whole. An `{ error }` in the body or the stream is thrown like
 * the same error over HTTP. A body that ends before candidate 0 finished is a retryable
 * `INCOMPLETE_STREAM`. Rethrows read failures as they are.
 */
export async function* readGeminiTurn(response: Response, turn: GeminiTurn, idle: IdleTimer, errors: ErrorContext): AsyncGenerator<ModelStreamEvent, void> {
  if (!response.ok) throw errorFromResponse(response.status, response.headers, await readBodyText(response.body, idle, MAX_ERROR_CHARS), errors);
  const accept = (value: unknown): ModelStreamEvent[] => {
    if (isRecord(value) && isRecord(value['error'])) {
      const code = Number(value['error']['code']);
      throw errorFromResponse(Number.isInteger(code) && code >= 400 && code <= 599 ? code : 500, response.headers, JSON.stringify(value), errors);
    }
    return turn.accept(value);
  };

  if ((response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream') && response.body !== null) {
    yield* readEvents(response.body, accept, idle, errors);
  } else {
    const text = (await readBodyText(response.body, idle, MAX_JSON_CHARS)).trim();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      const excerpt = redactSecrets(text.replace(/\s+/g, ' ').slice(0, 500), errors.secrets);
      throw new GoogleError('INVALID_RESPONSE', `The Gemini API at ${errors.display} sent a body that is not JSON (${(error as Error).message}).`, { bodyExcerpt: excerpt, url: errors.display, retryable: text === '' });
    }
    for (const chunk of Array.isArray(body) ? body : [body]) for (const event of accept(chunk)) yield event;
  }
  if (!turn.complete) {
    throw new GoogleError('INCOMPLETE_STREAM', `The answer from ${errors.display} ended before its finishReason. Nothing from this attempt was returned.`, { retryable: true, url: errors.display });
  }
  yield { type: 'finish', response: turn.response() };
}

async function* readEvents(body: ReadableStream<Uint8Array>, accept: (value: unknown) => ModelStreamEvent[], idle: IdleTimer, errors: ErrorContext): AsyncGenerator<ModelStreamEvent, void> {
  const pending: ModelStreamEvent[] = [];
  let failure: unknown;
  let flushing = false;
  const onEvent = (message: EventSourceMessage) => {
    if (failure !== undefined) return;
    const data = message.data.trim();
    if (data === '' || data === '[DONE]') return;
    try {
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch (error) {
        // At the end of input a half-sent last event is expected: the answer is incomplete, said after.
        if (flushing) return;
        throw new GoogleError('INVALID_RESPONSE', `The stream from ${errors.display} sent a data event that is not JSON (${(error as Error).message}).`, { cause: error });
      }
      pending.push(...accept(chunk));
    } catch (error) {
      failure = error;
    }
  };
  const onError = (error: ParseError) => {
    if (error.type === 'max-buffer-size-exceeded') failure = new GoogleError('INVALID_RESPONSE', `The stream from ${errors.display} sent an event longer than ${MAX_EVENT_CHARS} characters.`);
  };
  const parser = createParser({ onEvent, onError, maxBufferSize: MAX_EVENT_CHARS });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) {
        flushing = true;
        parser.feed(`${decoder.decode()}\n\n`);
      } else {
        idle.touch();
        parser.feed(decoder.decode(read.value, { stream: true }));
      }
      if (failure !== undefined) throw failure;
      while (pending.length > 0) {
        idle.pause();
        yield pending.shift()!;
        idle.touch();
      }
      if (read.done) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
