import { parseDuration } from './parse-duration.js';

/** Response headers, as `fetch` gives them. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait the server asks for before a retry, in ms, or `undefined` when it gives no usable hint.
 * Order: `retry-after-ms`, then `retry-after` (seconds, then an HTTP date), then, for an exhausted
 * rate limit (`x-ratelimit-remaining-*: 0`), its `x-ratelimit-reset-*` duration. Zero, negative and
 * unparsable values (Azure sends `-1` and `0` as "unknown") count as no hint, so the caller falls back
 * to exponential backoff instead of a hot loop. `now` is injectable for tests. Never throws.
 */
export function retryHint(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const milliseconds = positive(Number.parseFloat(headers.get('retry-after-ms') ?? ''));
  if (milliseconds !== undefined) return milliseconds;

  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter !== undefined && retryAfter !== '') {
    const seconds = /^-?\d+(?:\.\d+)?$/.test(retryAfter) ? Number(retryAfter) * 1_000 : Date.parse(retryAfter) - now;
    const hint = positive(seconds);
    if (hint !== undefined) return hint;
  }

  let reset: number | undefined;
  for (const limit of ['requests', 'tokens']) {
    if (headers.get(`x-ratelimit-remaining-${limit}`)?.trim() !== '0') continue;
    const duration = positive(parseDuration(headers.get(`x-ratelimit-reset-${limit}`) ?? ''));
    if (duration !== undefined) reset = Math.max(reset ?? 0, duration);
  }
  return reset;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}
