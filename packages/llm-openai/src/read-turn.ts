import type { ModelStreamEvent } from '@weir/core';
import { errorFromResponse, type ErrorContext } from './error-from-response.js';
import type { IdleTimer } from './idle-timer.js';
import { isErrorPayload, statusNamedBy } from './error-payload.js';
import { isRecord } from './is-record.js';
import { OpenAIError } from './openai-error.js';
import { MAX_EXCERPT_CHARS } from './parse-error-body.js';
import { readBodyText } from './read-body-text.js';
import { readSseTurn } from './read-sse-turn.js';
import { redactSecrets } from './redact-secrets.js';
import type { TurnReader } from './turn-reader.js';

/** What reading one response needs besides the response. */
export interface ReadTurnContext {
  readonly idle: IdleTimer;
  readonly errors: ErrorContext;
  readonly ignorableAfterComplete: (error: unknown) => boolean;
}

/** An error page is read this far, no further. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;
/** A whole JSON answer may be this long. */
const MAX_JSON_BODY_CHARS = 32 * 1024 * 1024;
/** Statuses of the error codes the Responses API sends in `error` events and `response.failed` (no status of their own). */
const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  invalid_request_error: 400,
  invalid_prompt: 400,
  context_length_exceeded: 400,
};
const SSE_START = /^(?:data|event|id|retry)?:/m;

/**
 * Reads one HTTP response into `turn`: yields the deltas, then one `finish` event with the whole
 * answer. Status and content type are checked before any parsing: a non-2xx status is read as a
 * (tolerant) error body and thrown as an `OpenAIError`; `text/event-stream` is streamed; JSON (a
 * server that ignored `stream: true`, or a JSON error with status 200) is read whole, leading blank
 * lines allowed. A body of another type is sniffed, then refused with a hint about the base URL.
 * Throws `OpenAIError`s, and rethrows read failures as they are.
 */
export async function* readTurn(response: Response, turn: TurnReader, context: ReadTurnContext): AsyncGenerator<ModelStreamEvent, void> {
  const { idle, errors } = context;
  if (!response.ok) {
    const text = await readBodyText(response.body, idle, MAX_ERROR_BODY_CHARS);
    throw errorFromResponse(response.status, response.headers, text, errors);
  }

  const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
  const providerError = (payload: unknown) => errorInBody(payload, response, errors);
  const sse = { idle, providerError, ignorableAfterComplete: context.ignorableAfterComplete, display: errors.target.display };

  if (contentType.includes('text/event-stream') && response.body !== null) {
    yield* readSseTurn(response.body, turn, sse);
  } else {
    const text = await readBodyText(response.body, idle, MAX_JSON_BODY_CHARS);
    const trimmed = text.trim();
    if (trimmed === '') {
      throw new OpenAIError('INCOMPLETE_STREAM', `The server at ${errors.target.display} answered 200 with an empty body.`, { retryable: true });
    }
    if (contentType.includes('json') || trimmed.startsWith('{')) {
      const body = parseJson(trimmed, errors);
      if (isErrorPayload(body)) throw providerError(body);
      const events = turn.acceptCompletion(body);
      if (turn.failure !== undefined) throw providerError(turn.failure);
      for (const event of events) yield event;
    } else if (SSE_START.test(trimmed)) {
      // A stream sent with the wrong content type (text/plain, or none): read the same way.
      yield* readSseTurn(new Response(text).body!, turn, sse);
    } else {
      throw new OpenAIError(
        'INVALID_RESPONSE',
        `The server at ${errors.target.display} answered 200 with ${contentType === '' ? 'no content type' : `content type "${contentType}"`}, not a Chat Completions answer. Check OPENAI_BASE_URL: it should point at the API (often ending in /v1), not a web page.`,
        { status: response.status, bodyExcerpt: excerpt(trimmed, errors), url: errors.target.display },
      );
    }
  }
  for (const event of turn.flush()) yield event;
  yield { type: 'finish', response: turn.response() };
}

/**
 * An error payload inside a 200 answer (`{ error }`, or vLLM's and SGLang's `{ object: 'error' }`):
 * classified by the status it names, or the status its code stands for (the Responses API's
 * `rate_limit_exceeded`, `server_error`... come without one), like the same error over HTTP (a 400
 * is not retried, a context-length message is `CONTEXT_LENGTH_EXCEEDED`); a 5xx-like outage when it
 * names none.
 */
function errorInBody(payload: unknown, response: Response, errors: ErrorContext): OpenAIError {
  const named = isErrorPayload(payload) ? statusNamedBy(payload) : undefined;
  const inner = isRecord(payload) ? payload['error'] : undefined;
  const byCode = isRecord(inner) ? (STATUS_OF_CODE[String(inner['code'])] ?? STATUS_OF_CODE[String(inner['type'])]) : undefined;
  return errorFromResponse(named ?? byCode ?? 500, response.headers, JSON.stringify(payload), errors, 'in-body');
}

function parseJson(text: string, errors: ErrorContext): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OpenAIError('INVALID_RESPONSE', `The server at ${errors.target.display} sent JSON that does not parse (${(error as Error).message}).`, {
      bodyExcerpt: excerpt(text, errors),
      url: errors.target.display,
      cause: error,
    });
  }
}

function excerpt(text: string, errors: ErrorContext): string {
  return redactSecrets(text.replace(/\s+/g, ' ').slice(0, MAX_EXCERPT_CHARS), errors.secrets);
}
