import type { IdleTimer } from './idle-timer.js';

/**
 * Reads a response body as UTF-8 text, touching `idle` on every chunk. Stops at `maxChars` (the
 * rest is cancelled: an error page does not need to be read to its end). Rejects when the
 * connection fails or the request's signal aborts.
 */
export async function readBodyText(body: ReadableStream<Uint8Array> | null, idle: IdleTimer, maxChars: number): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      idle.touch();
      text += decoder.decode(value, { stream: true });
      if (text.length >= maxChars) return text.slice(0, maxChars);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
