import { isRecord } from './is-record.js';

/**
 * True when a JSON value a 200 answer carried (a stream's data event, or the whole body) is a
 * provider's error rather than an answer: OpenAI's `{ error: ... }` (OpenRouter, Groq), or the
 * top-level `{ object: 'error', message, code }` that vLLM and SGLang send in a stream that failed
 * part way. Pure.
 */
export function isErrorPayload(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  return (value['error'] !== undefined && value['error'] !== null) || value['object'] === 'error';
}

/**
 * The HTTP status an error payload names (`status_code`, as Groq sends, `status`, or a numeric `code`,
 * as OpenRouter, vLLM and SGLang send), looked for in `error` and then at the top level; `undefined`
 * when it names none between 400 and 599. Pure.
 */
export function statusNamedBy(payload: Record<string, unknown>): number | undefined {
  const inner = payload['error'];
  for (const source of isRecord(inner) ? [inner, payload] : [payload]) {
    const named = [source['status_code'], source['status'], source['code']].map(Number).find((value) => Number.isInteger(value) && value >= 400 && value <= 599);
    if (named !== undefined) return named;
  }
  return undefined;
}
