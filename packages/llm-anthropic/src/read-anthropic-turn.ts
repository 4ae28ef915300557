import { createParser } from 'eventsource-parser';
import { readBodyText, redactSecrets, type IdleTimer, type ModelStreamEvent } from '@weir/core';
import { AnthropicError } from './anthropic-error.js';
import { errorFromStatus, type ErrorContext } from './error-from-status.js';
import { MessageAccumulator } from './message-accumulator.js';

const MAX_ERROR_BODY_CHARS = 64 * 1024;
const MAX_JSON_BODY_CHARS = 32 * 1024 * 1024;

/**
 * Reads one HTTP answer: a non-2xx status as an error body (thrown as an `AnthropicError`);
 * `text/event-stream` event by event (yielding the deltas as they come, then one `finish`);
 * a JSON body (a proxy that ignored `stream: true`, or a recorded answer) whole. A stream that ends
 * without `message_stop` is `INCOMPLETE_STREAM` (retryable): no partial answer is taken as a whole
 * one. An `error` event fails the attempt with what it says. Throws `AnthropicError`s and rethrows
 * read failures as they are.
 */
export async function* readAnthropicTurn(response: Response, idle: IdleTimer, errors: ErrorContext): AsyncGenerator<ModelStreamEvent, void> {
  if (!response.ok) {
    throw errorFromStatus(response.status, response.headers, await readBodyText(response.body, idle, MAX_ERROR_BODY_CHARS), errors);
  }
  const turn = new MessageAccumulator();
  const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
  try {
    if (contentType.includes('text/event-stream') && response.body !== null) {
      yield* readEvents(response.body, turn, idle, errors);
    } else {
      const text = (await readBodyText(response.body, idle, MAX_JSON_BODY_CHARS)).trim();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new AnthropicError('INVALID_RESPONSE', `The server at ${errors.display} answered 200 with ${contentType || 'no content type'}, not a Messages answer (body began: ${redactSecrets(text.slice(0, 200), errors.secrets)}). Check ANTHROPIC_BASE_URL.`, { status: 200, url: errors.display });
      }
      yield* turn.acceptMessage(typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {});
    }
  } catch (error) {
    throw error instanceof AnthropicError ? redacted(error, errors) : error;
  }
  if (!turn.complete) {
    throw new AnthropicError('INCOMPLETE_STREAM', `The answer from ${errors.display} ended before message_stop.`, { retryable: true, url: errors.display, attempt: errors.attempt });
  }
  yield { type: 'finish', response: turn.response() };
}

async function* readEvents(body: ReadableStream<Uint8Array>, turn: MessageAccumulator, idle: IdleTimer, errors: ErrorContext): AsyncGenerator<ModelStreamEvent, void> {
  let pending: ModelStreamEvent[] = [];
  let failure: unknown;
  const parser = createParser({
    onEvent: (event) => {
      if (failure !== undefined) return;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        failure = new AnthropicError('INVALID_RESPONSE', `The stream from ${errors.display} sent an event that is not JSON (${event.event ?? 'message'}).`, { status: 200, url: errors.display });
        return;
      }
      try {
        const events = turn.accept(typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {});
        if (events.length > 0) pending = pending.length === 0 ? events : pending.concat(events);
      } catch (error) {
        failure = error;
      }
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      idle.touch();
      parser.feed(decoder.decode(value, { stream: true }));
      // The deltas before an error event go out first, in order, as the stream sent them.
      if (pending.length > 0) {
        const ready = pending;
        pending = [];
        // The consumer is the slow one while it handles these: the server's silence is not counted.
        idle.pause();
        for (const event of ready) yield event;
        idle.touch();
      }
      if (failure !== undefined) throw failure;
      if (turn.complete) break;
    }
    parser.feed(decoder.decode());
    if (failure !== undefined) throw failure;
    for (const event of pending) yield event;
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function redacted(error: AnthropicError, errors: ErrorContext): AnthropicError {
  const message = redactSecrets(error.message, errors.secrets);
  const providerMessage = error.providerMessage === undefined ? undefined : redactSecrets(error.providerMessage, errors.secrets);
  if (message === error.message && providerMessage === error.providerMessage && error.url !== undefined) return error.numbered(errors.attempt);
  return new AnthropicError(error.code, message, { ...error, providerMessage, url: error.url ?? errors.display, cause: error.cause, attempt: error.attempt ?? errors.attempt });
}
