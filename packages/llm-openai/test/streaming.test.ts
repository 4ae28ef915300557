import type { ModelStreamEvent } from '@weir/core';
import { describe, expect, it, vi } from 'vitest';
import { fixtureCase, fixtureResponse } from './fixture-cases.js';
import { useLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { recordingModel, REQUEST } from './model-call.js';
import { streamedAnswer } from './scripted-answer.js';

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

/** A gate the test opens when it decides the server may go on. */
function gate(): { open: Promise<void>; release: () => void } {
  let release!: () => void;
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { open, release };
}

describe('stream() delivers deltas as they arrive', () => {
  it('yields the first text delta while the server is still paused before the rest', async () => {
    const paused = gate();
    // text_stream_basic: line 2 is "The build ", line 4 the next delta. The server stops before line 4.
    server.script(fixtureResponse(fixtureCase('text_stream_basic'), { gate: { beforeLine: 4, open: paused.open } }));
    const { model } = recordingModel(server);
    const iterator = model.stream(REQUEST)[Symbol.asyncIterator]();

    const first = await iterator.next();
    expect(first.value).toEqual({ type: 'text-delta', text: 'The build ' });
    // The server has not sent the rest: the delta came before the stream could have ended.
    paused.release();
    const rest: ModelStreamEvent[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) rest.push(next.value);
    expect(rest.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'finish']);
    expect(rest.at(-1)).toMatchObject({ type: 'finish', response: { text: 'The build passes on Node 22.' } });
  });

  it('spaces deltas as the server spaces events (pauses between events)', async () => {
    server.script(streamedAnswer({ text: 'one two three' }, { pauseMs: 60 }));
    const { model } = recordingModel(server);
    const start = performance.now();
    const arrivals: number[] = [];
    for await (const event of model.stream(REQUEST)) if (event.type === 'text-delta') arrivals.push(performance.now() - start);
    expect(arrivals).toHaveLength(3);
    // Each delta arrived about one pause after the one before, not all at the end.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(40);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(40);
  });

  it('a consumer that stops early closes the connection', async () => {
    const paused = gate();
    server.script(fixtureResponse(fixtureCase('text_stream_basic'), { gate: { beforeLine: 4, open: paused.open } }));
    const { model } = recordingModel(server);
    for await (const event of model.stream(REQUEST)) {
      expect(event).toEqual({ type: 'text-delta', text: 'The build ' });
      break;
    }
    await server.requests[0]!.closed;
    paused.release();
  });

  it('aborting mid-stream rejects with the signal\'s reason and closes the connection', async () => {
    const paused = gate();
    server.script(fixtureResponse(fixtureCase('text_stream_basic'), { gate: { beforeLine: 4, open: paused.open } }));
    const { model } = recordingModel(server);
    const controller = new AbortController();
    const reason = new Error('user pressed ctrl-c');
    const seen: ModelStreamEvent[] = [];
    const consumed = (async () => {
      for await (const event of model.stream({ ...REQUEST, signal: controller.signal })) {
        seen.push(event);
        controller.abort(reason);
      }
    })();
    await expect(consumed).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
    await server.requests[0]!.closed;
    paused.release();
  });

  it('complete() rejects with the abort reason while waiting for a paused server', async () => {
    const paused = gate();
    server.script(fixtureResponse(fixtureCase('text_stream_basic'), { gate: { beforeLine: 4, open: paused.open } }));
    const { model } = recordingModel(server);
    const controller = new AbortController();
    const pending = model.complete({ ...REQUEST, signal: controller.signal });
    // Abort once the server holds the request (a fixed delay raced the request on a busy machine).
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort('stop');
    await expect(pending).rejects.toBe('stop');
    await server.requests[0]!.closed;
    paused.release();
  });
});
