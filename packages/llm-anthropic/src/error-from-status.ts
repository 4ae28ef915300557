import { redactSecrets, retryHint, type HeaderSource } from '@weir/core';
import { AnthropicError, type AnthropicErrorCode } from './anthropic-error.js';

/** What an error needs to say who failed. */
export interface ErrorContext {
  readonly display: string;
  readonly model: string;
  /** The API key and credential header values: removed from everything the server sent. */
  readonly secrets: readonly string[];
  readonly attempt: number;
}

const NEVER_RETRY = new Set([400, 401, 402, 403, 404, 413, 422]);
const CONTEXT_OVERFLOW = /prompt is too long|context window|too many tokens/i;
const CREDIT = /credit balance|billing/i;

/**
 * A non-2xx answer as an `AnthropicError`: `{ type: 'error', error: { type, message } }` read when
 * the body is one. Retryable: 408, 429, 500, 529 and other 5xx (unless `x-should-retry` says
 * otherwise), with the server's `retry-after` as the wait; never 400, 401, 402, 403, 404, 413,
 * 422. Everything the server sent passes `redactSecrets` first. Returns; never throws.
 */
export function errorFromStatus(status: number, headers: HeaderSource, bodyText: string, context: ErrorContext): AnthropicError {
  let type: string | undefined;
  let providerMessage: string | undefined;
  try {
    const body = JSON.parse(bodyText) as { error?: { type?: unknown; message?: unknown } };
    if (typeof body.error?.type === 'string') type = body.error.type;
    if (typeof body.error?.message === 'string') providerMessage = redactSecrets(body.error.message, context.secrets);
  } catch {
    // Not JSON (a proxy's page): its start is quoted below.
  }
  const code = classify(status, type, providerMessage);
  const shouldRetry = headers.get('x-should-retry')?.trim().toLowerCase();
  const retryable = NEVER_RETRY.has(status) || code === 'CONTEXT_LENGTH_EXCEEDED' || code === 'QUOTA_EXCEEDED'
    ? false
    : shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : code === 'RATE_LIMITED' || code === 'PROVIDER_UNAVAILABLE';
  const retryAfterMs = retryHint(headers);
  const requestId = headers.get('request-id') ?? headers.get('x-request-id') ?? undefined;
  const excerpt = redactSecrets(bodyText.slice(0, 300), context.secrets).trim();
  const said = providerMessage !== undefined ? ` The API said: ${type ?? 'error'}: "${providerMessage}"` : excerpt === '' ? ' The body was empty.' : ` The body began: ${excerpt}`;
  const where = `HTTP ${status} from POST ${context.display}${requestId === undefined ? '' : `, request id ${requestId}`}`;
  return new AnthropicError(code, `${headline(code, context.model)} (${where}).${said}${hint(code, retryAfterMs)}`, {
    status,
    requestId,
    providerType: type,
    providerMessage,
    url: context.display,
    retryable,
    retryAfterMs,
    attempt: context.attempt,
  });
}

function classify(status: number, type: string | undefined, message: string | undefined): AnthropicErrorCode {
  if (status === 402 || (status === 400 && CREDIT.test(message ?? ''))) return 'QUOTA_EXCEEDED';
  if (status >= 400 && status < 500 && CONTEXT_OVERFLOW.test(message ?? '')) return 'CONTEXT_LENGTH_EXCEEDED';
  if (status === 401 || type === 'authentication_error') return 'AUTHENTICATION';
  if (status === 403 || type === 'permission_error') return 'PERMISSION_DENIED';
  if (status === 404 || type === 'not_found_error') return 'NOT_FOUND';
  if (status === 429 || type === 'rate_limit_error') return 'RATE_LIMITED';
  if (status === 408 || status >= 500 || type === 'overloaded_error' || type === 'api_error') return 'PROVIDER_UNAVAILABLE';
  return 'BAD_REQUEST';
}

function headline(code: AnthropicErrorCode, model: string): string {
  switch (code) {
    case 'AUTHENTICATION': return 'Authentication failed: the API refused the key';
    case 'PERMISSION_DENIED': return `Permission denied for model "${model}"`;
    case 'NOT_FOUND': return `Not found: model "${model}" or the endpoint`;
    case 'CONTEXT_LENGTH_EXCEEDED': return `The request does not fit the context window of model "${model}"`;
    case 'QUOTA_EXCEEDED': return 'The credit of this API key is exhausted';
    case 'RATE_LIMITED': return 'Rate limited';
    case 'PROVIDER_UNAVAILABLE': return 'The API is overloaded or unavailable';
    default: return 'The API rejected the request';
  }
}

function hint(code: AnthropicErrorCode, retryAfterMs: number | undefined): string {
  switch (code) {
    case 'AUTHENTICATION': return ' Check ANTHROPIC_API_KEY (or the apiKey option): it is missing, mistyped or revoked.';
    case 'NOT_FOUND': return ' Check ANTHROPIC_MODEL (a model id such as claude-sonnet-4-5) and ANTHROPIC_BASE_URL.';
    case 'CONTEXT_LENGTH_EXCEEDED': return ' Shorten the history or the tools (compact) and try again.';
    case 'RATE_LIMITED': return retryAfterMs === undefined ? ' Slow down or retry later.' : ` The server asked to wait ${Math.ceil(retryAfterMs / 1000)} s.`;
    default: return '';
  }
}
