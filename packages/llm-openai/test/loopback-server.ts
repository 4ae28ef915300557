import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { afterEach, beforeEach, expect, vi } from 'vitest';

/**
 * One scripted HTTP answer. Give `lines` (Server-Sent Events lines, `""` between events, each sent
 * followed by `lineEnding`) or `body` (a string as is, anything else as JSON).
 */
export interface ScriptedResponse {
  /** Default 200. */
  readonly status?: number;
  /** Default: `text/event-stream` for `lines`, `application/json` for `body`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly lines?: readonly string[];
  readonly body?: unknown;
  /** Deliver the bytes in random slices of `min`..`max` bytes (default 1..7), from a seeded PRNG. */
  readonly slices?: { readonly seed: number; readonly min?: number; readonly max?: number };
  /** Wait this long before each event but the first (real time, whatever the test's timers). */
  readonly pauseMs?: number;
  /** Wait for `open` before writing line `beforeLine` (0-based): the test decides when the rest comes. */
  readonly gate?: { readonly beforeLine: number; readonly open: Promise<void> };
  /** Destroy the socket instead of writing line `cutAtLine` (0-based; `lines.length` cuts after the last line). */
  readonly cutAtLine?: number;
  /** Keep the connection open after the last byte, until the client leaves (tests that the client stops at `[DONE]`). */
  readonly holdOpen?: boolean;
  /** Default `\n`. */
  readonly lineEnding?: '\n' | '\r\n';
}

/** A scripted answer, or a function choosing one (perhaps asynchronously) from the request. */
export type ScriptStep = ScriptedResponse | ((request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>);

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  readonly json: unknown;
  /** Settles when the connection of this request closes (the client left, or the server ended it). */
  readonly closed: Promise<void>;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `origin` + `/v1`: what `OPENAI_BASE_URL` should be. */
  readonly baseURL: string;
  /** Every request, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Requests that found no scripted answer (they got a 500): a strict test expects none. */
  readonly unexpected: readonly RecordedRequest[];
  /** Scripted answers not served yet. */
  readonly pending: number;
  /** Queues answers, served one per request, in order. */
  script(...steps: ScriptStep[]): void;
  /** The three variables `openAIModelFromEnv()` reads, pointing at this server. */
  env(model?: string): { OPENAI_BASE_URL: string; OPENAI_API_KEY: string; OPENAI_MODEL: string };
  /** Closes every connection, held-open ones included, then the server. */
  close(): Promise<void>;
}

/** The key `env()` hands out. Tests can check that it never shows up in an error. */
export const LOOPBACK_API_KEY = 'sk-loopback-0123456789abcdef';

/**
 * Starts a strict scripted OpenAI-compatible server on 127.0.0.1 (port 0: the OS picks a free one).
 * It answers every request with the next scripted answer, delivering the bytes whole, in seeded
 * random slices, with pauses between events, behind a gate, or cut at a given line. It records every
 * request. Reusable: the first-agent example runs against it through `env()`.
 */
/**
 * A fresh loopback server for each test of the file, given to `receive` before the test runs. After
 * the test the timers are real again, the server is closed, and it must have received no request
 * it had no scripted answer for (strict: a retry of a terminal error shows up there).
 */
export function useLoopbackServer(receive: (server: LoopbackServer) => void): void {
  let current: LoopbackServer | undefined;
  beforeEach(async () => {
    current = await startLoopbackServer();
    receive(current);
  });
  afterEach(async () => {
    vi.useRealTimers();
    const server = current;
    current = undefined;
    if (server === undefined) return;
    await server.close();
    expect(server.unexpected).toEqual([]);
  });
}

export async function startLoopbackServer(): Promise<LoopbackServer> {
  const steps: ScriptStep[] = [];
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
      const request: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json: parseJson(body), closed };
      requests.push(request);
      const step = steps.shift();
      if (step === undefined) {
        unexpected.push(request);
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `loopback server: no scripted answer for request #${requests.length}`, type: 'loopback_script_exhausted' } }));
        return;
      }
      Promise.resolve(typeof step === 'function' ? step(request) : step)
        .then((scripted) => serve(res, scripted))
        .catch((error: unknown) => {
          // A failing step is a broken test script: answer 500 with the reason, and record it.
          unexpected.push(request);
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `loopback server: the script step failed: ${String(error)}`, type: 'loopback_step_failed' } }));
        });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    baseURL: `${origin}/v1`,
    requests,
    unexpected,
    get pending() {
      return steps.length;
    },
    script: (...more) => {
      steps.push(...more);
    },
    env: (model = 'loopback-model') => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: LOOPBACK_API_KEY, OPENAI_MODEL: model }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serve(res: ServerResponse, scripted: ScriptedResponse): Promise<void> {
  res.on('error', () => undefined);
  const isStream = scripted.lines !== undefined;
  const headers = scripted.headers ?? (isStream ? { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } : { 'content-type': 'application/json' });
  res.writeHead(scripted.status ?? 200, headers);
  res.flushHeaders();
  // Seeded, so a failure under random slicing replays from the seed in the test's name.
  const generator = scripted.slices === undefined ? undefined : xoroshiro128plus(scripted.slices.seed);
  const write = (text: string) => writeBytes(res, Buffer.from(text, 'utf8'), generator, scripted.slices?.min ?? 1, scripted.slices?.max ?? 7);

  if (isStream) {
    const lines = scripted.lines!;
    const ending = scripted.lineEnding ?? '\n';
    for (let index = 0; index < lines.length; index++) {
      if (res.destroyed) return;
      if (index === scripted.cutAtLine) {
        res.socket?.destroy();
        return;
      }
      if (scripted.gate?.beforeLine === index) await scripted.gate.open;
      if (scripted.pauseMs !== undefined && index > 0 && lines[index - 1] === '') await delay(scripted.pauseMs);
      await write(lines[index]! + ending);
    }
    if (scripted.cutAtLine === lines.length) {
      res.socket?.destroy();
      return;
    }
  } else if (scripted.body !== undefined) {
    await write(typeof scripted.body === 'string' ? scripted.body : JSON.stringify(scripted.body));
  }
  if (!scripted.holdOpen) res.end();
}

async function writeBytes(res: ServerResponse, bytes: Buffer, generator: RandomGenerator | undefined, min: number, max: number): Promise<void> {
  if (generator === undefined) {
    await writeFlushed(res, bytes);
    return;
  }
  for (let offset = 0; offset < bytes.length && !res.destroyed; ) {
    const size = uniformInt(generator, min, max);
    await writeFlushed(res, bytes.subarray(offset, offset + size));
    offset += size;
    // One event-loop turn per slice, so slices leave as separate TCP writes rather than one.
    await nextTurn();
  }
}

/** Writes and waits until the bytes are handed to the OS: a cut right after loses nothing written. */
function writeFlushed(res: ServerResponse, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) {
      resolve();
      return;
    }
    res.once('close', resolve);
    res.write(bytes, () => {
      res.off('close', resolve);
      resolve();
    });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
