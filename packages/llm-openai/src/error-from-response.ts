import { OpenAIError, type OpenAIErrorCode } from './openai-error.js';
import { parseErrorBody, type ParsedErrorBody } from './parse-error-body.js';
import { redactSecrets } from './redact-secrets.js';
import type { RequestTarget } from './request-target.js';
import { retryHint, type HeaderSource } from './retry-hint.js';

/** What an error needs to say who failed and what to do. */
export interface ErrorContext {
  readonly target: RequestTarget;
  readonly model: string;
  /** The API key and any credential header values: removed from everything the server sent. */
  readonly secrets: readonly string[];
  readonly attempt: number;
}

/** Statuses that fail the same way however often they are sent, whatever `x-should-retry` says. */
const NEVER_RETRY = new Set([400, 401, 402, 403, 404, 422]);
// OpenAI's code, then the messages of servers that send none: vLLM ("maximum context length", "longer
// than the maximum model length"), SGLang ("longer than the model's context length"), Anthropic-style.
const CONTEXT_OVERFLOW = /context[_ ]length[_ ]exceeded|maximum context length|context window|prompt is too long|longer than the (?:model's context length|maximum model length)/i;

/**
 * Turns a non-2xx answer into an `OpenAIError` whose message says what to do: 401 names
 * OPENAI_API_KEY, 404 names the model and the base URL (and the missing `/v1`, when it is missing).
 * Retryable: 408, 409, 429 and 5xx, unless `x-should-retry` says otherwise or the error is a quota
 * one; never 400, 401, 402, 403, 404, 422. `origin: 'in-body'` is for an `{ error }` payload sent with
 * status 200 (in a stream or a JSON body), `status` then being its code. Returns the error; never throws.
 */
export function errorFromResponse(
  status: number,
  headers: HeaderSource,
  bodyText: string,
  context: ErrorContext,
  origin: 'status' | 'in-body' = 'status',
): OpenAIError {
  const redact = (text: string | undefined) => (text === undefined ? undefined : redactSecrets(text, context.secrets));
  const parsed = parseErrorBody(bodyText);
  const body: ParsedErrorBody = { ...parsed, message: redact(parsed.message), excerpt: redact(parsed.excerpt) };
  const code = classify(status, body);
  const requestId = requestIdOf(headers);
  const retryAfterMs = retryHint(headers);
  const shouldRetry = headers.get('x-should-retry')?.trim().toLowerCase();
  const retryable =
    code === 'QUOTA_EXCEEDED' || code === 'CONTEXT_LENGTH_EXCEEDED' || NEVER_RETRY.has(status)
      ? false
      : shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : code === 'RATE_LIMITED' || code === 'PROVIDER_UNAVAILABLE';

  const said = body.message !== undefined ? ` The provider said: "${body.message}"` : body.excerpt !== undefined ? ` The body began: ${body.excerpt}` : ' The body was empty.';
  const sent = origin === 'status' ? `HTTP ${status}` : `an error with code ${status} inside a 200 answer`;
  const where = `${sent} from POST ${context.target.display}${requestId === undefined ? '' : `, request id ${requestId}`}`;
  const message = `${headline(code, status, context)} (${where}).${said}${hint(code, context, retryAfterMs)}`;

  return new OpenAIError(code, message, {
    status,
    requestId,
    providerMessage: body.message,
    providerType: body.type,
    providerCode: body.code,
    param: body.param,
    bodyExcerpt: body.excerpt,
    url: context.target.display,
    retryable,
    retryAfterMs,
    attempt: context.attempt,
  });
}

/** The request id a provider sends back, under the names the common ones use. Never throws. */
export function requestIdOf(headers: HeaderSource): string | undefined {
  return headers.get('x-request-id') ?? headers.get('request-id') ?? headers.get('apim-request-id') ?? undefined;
}

function classify(status: number, body: ParsedErrorBody): OpenAIErrorCode {
  if (status === 402 || body.code === 'insufficient_quota' || body.type === 'insufficient_quota') return 'QUOTA_EXCEEDED';
  if (status >= 400 && status < 500 && (body.code === 'context_length_exceeded' || CONTEXT_OVERFLOW.test(body.message ?? ''))) return 'CONTEXT_LENGTH_EXCEEDED';
  if (status === 401) return 'AUTHENTICATION';
  if (status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 408 || status === 409 || status >= 500) return 'PROVIDER_UNAVAILABLE';
  if (status >= 400) return 'BAD_REQUEST';
  return 'UNEXPECTED_STATUS';
}

function headline(code: OpenAIErrorCode, status: number, { model }: ErrorContext): string {
  switch (code) {
    case 'AUTHENTICATION': return 'Authentication failed: the server refused the API key';
    case 'PERMISSION_DENIED': return `Permission denied for model "${model}"`;
    case 'NOT_FOUND': return `Not found: model "${model}" or the endpoint`;
    case 'CONTEXT_LENGTH_EXCEEDED': return `The request does not fit the context window of model "${model}"`;
    case 'QUOTA_EXCEEDED': return 'The quota or credit of this API key is exhausted';
    case 'RATE_LIMITED': return 'Rate limited';
    case 'PROVIDER_UNAVAILABLE': return 'The provider is unavailable or timed out';
    case 'BAD_REQUEST': return 'The server rejected the request';
    default: return `Unexpected HTTP status ${status}`;
  }
}

function hint(code: OpenAIErrorCode, { target, model }: ErrorContext, retryAfterMs: number | undefined): string {
  switch (code) {
    case 'AUTHENTICATION':
      return ' Check OPENAI_API_KEY (or the apiKey option): it is missing, mistyped, revoked, or meant for another endpoint.';
    case 'PERMISSION_DENIED':
      return ' Check that the API key\'s project or organisation may use this model and endpoint.';
    case 'NOT_FOUND':
      return target.hasVersionSegment
        ? ` Check that OPENAI_MODEL ("${model}") is a model this endpoint serves, and that OPENAI_BASE_URL (${target.base}) is right.`
        : ` Check that OPENAI_MODEL ("${model}") is a model this endpoint serves. OPENAI_BASE_URL (${target.base}) has no version segment: most servers expect it to end with /v1 (try ${target.base}/v1).`;
    case 'CONTEXT_LENGTH_EXCEEDED':
      return ' Shorten the history or the tools (compact, summarise) and try again; resending it unchanged fails the same way.';
    case 'QUOTA_EXCEEDED':
      return ' Add credit or raise the limit; waiting and retrying will not help.';
    case 'RATE_LIMITED':
      return retryAfterMs === undefined ? ' Slow down or retry later.' : ` The server asked to wait ${Math.ceil(retryAfterMs / 1000)} s.`;
    default:
      return '';
  }
}
