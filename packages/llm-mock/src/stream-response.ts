import type { ModelResponse, ModelStreamEvent } from '@weir/core';

/**
 * Replays a whole response as a stream: the text in up to `chunks` deltas, one delta per tool
 * call, then `finish`. Yields to the event loop between deltas, as a network stream would, and
 * throws the signal's reason once it aborts.
 */
export async function* streamResponse(response: ModelResponse, signal: AbortSignal | undefined, chunks = 3): AsyncGenerator<ModelStreamEvent> {
  for (const text of splitText(response.text, chunks)) {
    await nextTick(signal);
    yield { type: 'text-delta', text };
  }
  for (const [index, call] of response.toolCalls.entries()) {
    await nextTick(signal);
    const argumentsDelta = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    yield { type: 'tool-call-delta', index, id: call.id, name: call.name, argumentsDelta };
  }
  await nextTick(signal);
  yield { type: 'finish', response };
}

/** Splits on code points into at most `parts` non-empty pieces of about the same length. */
export function splitText(text: string, parts: number): string[] {
  const points = Array.from(text);
  if (points.length === 0) return [];
  const size = Math.ceil(points.length / Math.max(1, parts));
  const pieces: string[] = [];
  for (let start = 0; start < points.length; start += size) pieces.push(points.slice(start, start + size).join(''));
  return pieces;
}

async function nextTick(signal: AbortSignal | undefined): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
}
