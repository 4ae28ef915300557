import type { ModelStreamEvent } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { IdleTimer } from './idle-timer.js';
import { isOpenAIError, OpenAIError } from './openai-error.js';
import { readSseTurn } from './read-sse-turn.js';
import { TurnAccumulator } from './turn-accumulator.js';

/** A body that delivers `bytes` in exactly the given slice sizes (cycled). */
function sliced(text: string, sizes: readonly number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const size = sizes[turn++ % sizes.length]!;
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

const CONTEXT = {
  idle: new IdleTimer(Number.POSITIVE_INFINITY, () => undefined),
  providerError: (payload: unknown) => new OpenAIError('PROVIDER_UNAVAILABLE', JSON.stringify(payload)),
  ignorableAfterComplete: () => true,
  display: 'http://test/chat/completions',
};

async function read(body: ReadableStream<Uint8Array>): Promise<{ events: ModelStreamEvent[]; turn: TurnAccumulator }> {
  const turn = new TurnAccumulator({ turn: 1, taken: new Set() });
  const events: ModelStreamEvent[] = [];
  for await (const event of readSseTurn(body, turn, CONTEXT)) events.push(event);
  return { events, turn };
}

const data = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}`;

describe('readSseTurn', () => {
  it('decodes UTF-8 split across one-byte slices', async () => {
    const text = 'Grüße, 世界 🚀 — naïve';
    const stream = [data({ content: text }), '', data({}, 'stop'), '', 'data: [DONE]', '', ''].join('\n');
    for (const sizes of [[1], [2, 3], [7]]) {
      const { turn } = await read(sliced(stream, sizes));
      expect(turn.response().text).toBe(text);
    }
  });

  it('handles CRLF and bare CR line ends, even with CR and LF in separate slices', async () => {
    for (const ending of ['\r\n', '\r']) {
      const stream = [data({ content: 'ok' }), '', data({}, 'stop'), '', ''].join(ending);
      const { turn } = await read(sliced(stream, [1]));
      expect(turn.response().text).toBe('ok');
    }
  });

  it('joins multi-line data and skips comments, event names and ids', async () => {
    const json = JSON.stringify({ choices: [{ index: 0, delta: { content: 'multi' }, finish_reason: 'stop' }] }, null, 1).split('\n');
    const stream = [': hello', 'id: 1', 'event: message', ...json.map((line) => `data: ${line}`), '', ''].join('\n');
    const { turn } = await read(sliced(stream, [5]));
    expect(turn.response().text).toBe('multi');
  });

  it('flushes the last event at end of input, even without its closing blank line', async () => {
    const stream = [data({ content: 'last' }, 'stop')].join('\n');
    const { turn } = await read(sliced(stream, [4]));
    expect(turn.response()).toMatchObject({ text: 'last', finishReason: 'stop' });
  });

  it('ends with a retryable INCOMPLETE_STREAM when no finish came, after yielding what came', async () => {
    const events: ModelStreamEvent[] = [];
    const turn = new TurnAccumulator({ turn: 1, taken: new Set() });
    let caught: unknown;
    try {
      for await (const event of readSseTurn(sliced([data({ content: 'half' }), '', ''].join('\n'), [3]), turn, CONTEXT)) events.push(event);
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text-delta', text: 'half' }]);
    expect(isOpenAIError(caught, 'INCOMPLETE_STREAM')).toBe(true);
    expect((caught as OpenAIError).retryable).toBe(true);
  });

  it('ignores a half-sent last line at end of input (the answer is then incomplete)', async () => {
    const stream = `${data({ content: 'a' })}\n\ndata: {"choices":[{"ind`;
    await expect(read(sliced(stream, [6]))).rejects.toMatchObject({ code: 'INCOMPLETE_STREAM' });
  });

  it('refuses a data event that is not JSON', async () => {
    await expect(read(sliced('data: <html>\n\n', [50]))).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('stops at [DONE] although the body never ends, and cancels the body', async () => {
    let cancelled = false;
    const head = new TextEncoder().encode([data({ content: 'x' }, 'stop'), '', 'data: [DONE]', '', ''].join('\n'));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      // Nothing more, ever: a server that holds the connection open after [DONE].
      pull: () => new Promise(() => undefined),
      cancel() {
        cancelled = true;
      },
    });
    const { turn } = await read(body);
    expect(turn.response().text).toBe('x');
    expect(cancelled).toBe(true);
  });

  it('raises error events and bare JSON error lines as the provider\'s error', async () => {
    await expect(read(sliced('event: error\ndata: {"message":"overloaded"}\n\n', [9]))).rejects.toThrow(/overloaded/);
    await expect(read(sliced(`${data({ content: 'a' })}\n\n{"error":{"message":"upstream gone"}}\n\n`, [9]))).rejects.toThrow(/upstream gone/);
  });

  it('keeps an answer that finished when the connection then breaks', async () => {
    const head = new TextEncoder().encode([data({ content: 'done' }, 'stop'), '', ''].join('\n'));
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new TypeError('terminated'));
        else controller.enqueue(head);
        sent = true;
      },
    });
    const { turn } = await read(body);
    expect(turn.response().text).toBe('done');
  });
});
