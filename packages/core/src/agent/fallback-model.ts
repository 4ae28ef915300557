import type { LanguageModel, ModelRequest, ModelResponse, ModelStreamEvent } from './model.js';

/** Options of `fallbackModel`. */
export interface FallbackOptions {
  /** Default: `fallback(<id>,<id>,...)`. */
  readonly id?: string;
  /**
   * True when the next model should be tried after this error. Default: `isRetryableModelError`
   * (rate limited, unavailable, timed out, network; never a bad request or an authentication error).
   */
  readonly shouldFallback?: (error: unknown) => boolean;
  /** Told each time a model failed and the next one is tried. */
  readonly onFallback?: (event: { readonly from: string; readonly to: string; readonly error: unknown }) => void;
}

/** Codes (of `@weir/llm-openai` and adapters like it) for failures another model may not share. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['RATE_LIMITED', 'PROVIDER_UNAVAILABLE', 'TIMEOUT', 'IDLE_TIMEOUT', 'NETWORK', 'INCOMPLETE_STREAM']);
/** Failures every model of the list would meet the same way, or that retrying would repeat: never moved past. */
const FINAL_CODES: ReadonlySet<string> = new Set(['BAD_REQUEST', 'AUTHENTICATION', 'PERMISSION_DENIED', 'INVALID_CONFIG', 'CONTEXT_LENGTH_EXCEEDED', 'QUOTA_EXCEEDED', 'NOT_FOUND']);

/**
 * True for a model error marked retryable: an error whose `code` is one of `RATE_LIMITED`,
 * `PROVIDER_UNAVAILABLE`, `TIMEOUT`, `IDLE_TIMEOUT`, `NETWORK`, `INCOMPLETE_STREAM`, or that says
 * `retryable: true`, or carries HTTP status 408, 429 or 5xx. A bad request, an authentication or
 * permission error, a quota or a context overflow is never retryable, whatever else it says.
 */
export function isRetryableModelError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, retryable, status } = error as { code?: unknown; retryable?: unknown; status?: unknown };
  if (typeof code === 'string' && FINAL_CODES.has(code)) return false;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429) return false;
  if (typeof code === 'string' && RETRYABLE_CODES.has(code)) return true;
  if (retryable === true) return true;
  return typeof status === 'number' && (status === 408 || status === 429 || status >= 500);
}

/**
 * A model that answers with the first of `models` that does not fail retryably: the next one is
 * tried only after an error `shouldFallback` accepts (by default rate limits, unavailability and
 * timeouts), never after a bad request or an authentication error, which rejects at once, nor once
 * the request's signal aborted. Each model keeps its own retries: the list is tried once, in order,
 * per call, and the last error rejects. The answer carries `model`, the id of the model that gave
 * it, so a turn's steps say which model answered each.
 *
 * Streaming falls back only before the first event: once text went to the caller, a second model
 * would repeat it, so a stream that breaks later rejects.
 */
export function fallbackModel(models: readonly LanguageModel[], options: FallbackOptions = {}): LanguageModel {
  if (!Array.isArray(models) || models.length === 0) throw new TypeError('fallbackModel: give at least one model.');
  models.forEach((model, index) => {
    if (typeof model?.complete !== 'function') throw new TypeError(`fallbackModel: model ${index + 1} does not implement LanguageModel (a complete() method).`);
  });
  const list = [...models];
  const shouldFallback = options.shouldFallback ?? isRetryableModelError;
  const id = options.id ?? `fallback(${list.map((model) => model.id).join(',')})`;

  const next = (index: number, error: unknown, request: ModelRequest): boolean => {
    if (index + 1 >= list.length || request.signal?.aborted === true || !shouldFallback(error)) return false;
    options.onFallback?.({ from: list[index]!.id, to: list[index + 1]!.id, error });
    return true;
  };

  const complete = async (request: ModelRequest): Promise<ModelResponse> => {
    for (let index = 0; ; index += 1) {
      const model = list[index]!;
      try {
        const response = await model.complete(request);
        return response.model === undefined ? { ...response, model: model.id } : response;
      } catch (error) {
        if (!next(index, error, request)) throw error;
      }
    }
  };

  async function* stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    for (let index = 0; ; index += 1) {
      const model = list[index]!;
      let started = false;
      try {
        const events = typeof model.stream === 'function' ? model.stream(request) : once(model, request);
        for await (const event of events) {
          started = true;
          if (event.type === 'finish') {
            yield event.response.model === undefined ? { type: 'finish', response: { ...event.response, model: model.id } } : event;
            return;
          }
          yield event;
        }
        return;
      } catch (error) {
        if (started || !next(index, error, request)) throw error;
      }
    }
  }

  // `models`: the budget finds the answering member's stated price by the id it answered with.
  return Object.freeze({ id, complete, stream, models: Object.freeze(list) });
}

async function* once(model: LanguageModel, request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
  yield { type: 'finish', response: await model.complete(request) };
}
