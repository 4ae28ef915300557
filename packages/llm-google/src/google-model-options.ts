import { GoogleError } from './google-error.js';
import type { SchemaForm } from './to-gemini-schema.js';
import { redactUrl, resolveTransport, type ResolvedTransport, type RetryEvent as CoreRetryEvent, type TransportOptions } from '@weir/core';

/** Told before each wait between attempts: the attempt that failed, the wait, its error. */
export type RetryEvent = CoreRetryEvent<GoogleError>;

/**
 * Options of `createGoogleModel`. Only `model` and `apiKey` are required.
 * The transport options (`headers`, `timeoutMs`, `idleTimeoutMs`, `maxRetries`, `maxRetryDelayMs`, `fetch`)
 * are core's `TransportOptions`, checked and defaulted alike for every adapter. Retried: 429, 500, 503, 504, a network failure, an idle stream, a cut stream.
 */
export interface GoogleModelOptions extends TransportOptions {
  /** The model id, e.g. `gemini-2.5-flash`, `gemini-3-pro-preview` (a `models/` prefix is accepted). */
  readonly model: string;
  /** Sent as `x-goog-api-key`. */
  readonly apiKey: string;
  /** The API root. Default `https://generativelanguage.googleapis.com/v1beta`. */
  readonly baseURL?: string;
  /**
   * How tool parameters are sent: `'json-schema'` (default) as `parametersJsonSchema`, JSON Schema as
   * it is; `'openapi'` as `parameters`, converted to the API's own schema form (for models and
   * endpoints that lack `parametersJsonSchema`), with a warning naming what was dropped.
   */
  readonly schemaForm?: SchemaForm;
  /** Ask for thought summaries (`thinkingConfig.includeThoughts`). Default true, except for gemini-1.x and gemini-2.0 models, which do not think. */
  readonly includeThoughts?: boolean;
  /** Fields added to every request body: `safetySettings`, `generationConfig` entries (merged)... */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** Told before each wait between attempts. Must not throw. */
  readonly onRetry?: (event: RetryEvent) => void;
  /** Told what the adapter could not honour (a schema keyword dropped). Default: `process.emitWarning`. */
  readonly onWarning?: (message: string) => void;
}

export interface ResolvedOptions extends ResolvedTransport {
  readonly model: string;
  readonly href: string;
  readonly display: string;
  readonly schemaForm: SchemaForm;
  readonly includeThoughts: boolean;
  readonly extraBody: Readonly<Record<string, unknown>> | undefined;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
  readonly onWarning: (message: string) => void;
}

export const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** Checks the options and fills in defaults. Throws `GoogleError('INVALID_CONFIG')` naming the bad option. */
export function resolveOptions(options: GoogleModelOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw invalid('createGoogleModel() needs an options object with model and apiKey.');
  if (typeof options.model !== 'string' || options.model.trim() === '') throw invalid('model is required, e.g. gemini-2.5-flash.');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw invalid('apiKey is required (GEMINI_API_KEY or GOOGLE_API_KEY).');
  const schemaForm = options.schemaForm ?? 'json-schema';
  if (schemaForm !== 'json-schema' && schemaForm !== 'openapi') throw invalid(`schemaForm must be 'json-schema' or 'openapi', got ${JSON.stringify(schemaForm)}.`);
  const transport = resolveTransport(options, options.apiKey, { 'content-type': 'application/json', accept: 'text/event-stream, application/json', 'x-goog-api-key': options.apiKey }, invalid);
  const model = options.model.trim().replace(/^models\//, '');
  let url: URL;
  try {
    url = new URL((options.baseURL ?? DEFAULT_BASE_URL).trim());
  } catch {
    throw invalid(`The base URL "${redactUrl(String(options.baseURL))}" is not a URL, e.g. ${DEFAULT_BASE_URL}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`The base URL must be http or https, got "${url.protocol}".`);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/models/${encodeURIComponent(model)}:streamGenerateContent`;
  url.searchParams.set('alt', 'sse');
  return {
    ...transport,
    model,
    href: url.href,
    display: `${url.origin}${url.pathname}`,
    schemaForm,
    includeThoughts: options.includeThoughts ?? !/^gemini-(1|2\.0)/.test(model),
    extraBody: options.extraBody,
    onRetry: options.onRetry,
    onWarning: options.onWarning ?? ((message) => process.emitWarning(message, { code: 'WEIR_GOOGLE_SCHEMA' })),
  };
}

function invalid(message: string): GoogleError {
  return new GoogleError('INVALID_CONFIG', message);
}
