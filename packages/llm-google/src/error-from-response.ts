import { GoogleError, type GoogleErrorCode } from './google-error.js';
import { isRecord } from './is-record.js';
import { redactSecrets } from '@weir/core';

/** What an error needs to say who failed. */
export interface ErrorContext {
  /** The endpoint without query string (the key never goes in a URL, but a caller's baseURL might hold one). */
  readonly display: string;
  readonly model: string;
  readonly secrets: readonly string[];
  readonly attempt: number;
}

/** What the Gemini API says in `{ error: { code, message, status, details } }` (or an array of those). */
interface GoogleErrorBody {
  readonly message?: string;
  readonly status?: string;
  readonly reason?: string;
  readonly retryDelayMs?: number;
}

const EXCERPT_CHARS = 500;

/**
 * Turns a non-2xx answer into a `GoogleError` that says what to do. Retryable: 429
 * (`RESOURCE_EXHAUSTED`, waiting `RetryInfo.retryDelay` when the body gives one, else `retry-after`),
 * 500, 503 and 504; never 400, 401, 403, 404. Returns; never throws.
 */
export function errorFromResponse(status: number, headers: Headers, text: string, context: ErrorContext): GoogleError {
  const body = parseBody(text);
  const providerMessage = body?.message === undefined ? undefined : redactSecrets(body.message, context.secrets);
  const bodyExcerpt = body === undefined && text.trim() !== '' ? redactSecrets(text.replace(/\s+/g, ' ').slice(0, EXCERPT_CHARS), context.secrets) : undefined;
  const code = classify(status, body);
  const retryable = code === 'RATE_LIMITED' || code === 'PROVIDER_UNAVAILABLE';
  const retryAfterMs = body?.retryDelayMs ?? retryAfterHeader(headers);
  const said = providerMessage !== undefined ? ` Google said: "${providerMessage}"` : bodyExcerpt !== undefined ? ` The body began: ${bodyExcerpt}` : '';
  const word = body?.status === undefined ? '' : ` ${body.status}`;
  return new GoogleError(code, `${headline(code, context)} (HTTP ${status}${word} from POST ${context.display}).${said}${hint(code, retryAfterMs)}`, {
    status,
    ...(body?.status !== undefined && { providerStatus: body.status }),
    ...(providerMessage !== undefined && { providerMessage }),
    ...(body?.reason !== undefined && { reason: body.reason }),
    ...(bodyExcerpt !== undefined && { bodyExcerpt }),
    url: context.display,
    retryable,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
    attempt: context.attempt,
  });
}

function classify(status: number, body: GoogleErrorBody | undefined): GoogleErrorCode {
  if (status === 401 || body?.reason === 'API_KEY_INVALID') return 'AUTHENTICATION';
  if (status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 500 || status === 502 || status === 503 || status === 504) return 'PROVIDER_UNAVAILABLE';
  if (status >= 400 && status < 600) return 'BAD_REQUEST';
  return 'UNEXPECTED_STATUS';
}

function headline(code: GoogleErrorCode, { model }: ErrorContext): string {
  switch (code) {
    case 'AUTHENTICATION': return 'Authentication failed: Google refused the API key';
    case 'PERMISSION_DENIED': return `Permission denied for model "${model}"`;
    case 'NOT_FOUND': return `Not found: model "${model}"`;
    case 'RATE_LIMITED': return 'Rate limited or out of quota (RESOURCE_EXHAUSTED)';
    case 'PROVIDER_UNAVAILABLE': return 'The Gemini API is unavailable or overloaded';
    case 'BAD_REQUEST': return 'The Gemini API rejected the request';
    default: return 'Unexpected answer from the Gemini API';
  }
}

function hint(code: GoogleErrorCode, retryAfterMs: number | undefined): string {
  if (code === 'AUTHENTICATION') return ' Check GEMINI_API_KEY (or GOOGLE_API_KEY, or the apiKey option).';
  if (code === 'NOT_FOUND') return ' Check GEMINI_MODEL (e.g. gemini-2.5-flash) and the base URL.';
  if (code === 'RATE_LIMITED' && retryAfterMs !== undefined) return ` Google asked to wait ${Math.ceil(retryAfterMs / 1000)} s.`;
  return '';
}

/** A tolerant read of Google's error body; undefined when it is not one. Never throws. */
function parseBody(text: string): GoogleErrorBody | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const root = Array.isArray(value) ? (value[0] as unknown) : value;
  const error = isRecord(root) ? root['error'] : undefined;
  if (!isRecord(error)) return undefined;
  const details = Array.isArray(error['details']) ? error['details'].filter(isRecord) : [];
  const reason = details.map((detail) => detail['reason']).find((found): found is string => typeof found === 'string');
  const delay = details.map((detail) => detail['retryDelay']).find((found): found is string => typeof found === 'string');
  const retryDelayMs = delay === undefined ? undefined : parseGoogleDuration(delay);
  return {
    ...(typeof error['message'] === 'string' && { message: error['message'] }),
    ...(typeof error['status'] === 'string' && { status: error['status'] }),
    ...(reason !== undefined && { reason }),
    ...(retryDelayMs !== undefined && { retryDelayMs }),
  };
}

/** A protobuf `Duration` as JSON (`"20s"`, `"1.5s"`), in ms; undefined when it is not one or not positive. */
export function parseGoogleDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(text.trim());
  if (match === null) return undefined;
  const ms = Math.ceil(Number(match[1]) * 1000);
  return ms > 0 ? ms : undefined;
}

function retryAfterHeader(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  const ms = /^\d+(?:\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms > 0 ? Math.ceil(ms) : undefined;
}
