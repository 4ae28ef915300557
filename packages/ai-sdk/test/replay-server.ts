import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** One answer to serve: the status, content type and bytes. */
export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RecordedRequest {
  readonly path: string;
  readonly json: any;
}

/**
 * An HTTP server on 127.0.0.1 that answers each request with the next queued reply (a 500 naming
 * the path when none is queued) and records every request's path and JSON body.
 */
export interface ReplayServer {
  readonly origin: string;
  readonly requests: RecordedRequest[];
  queue(...replies: Reply[]): void;
  /** Forgets the queued replies and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export async function startReplayServer(): Promise<ReplayServer> {
  const replies: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      requests.push({ path: request.url ?? '', json });
      const reply = replies.shift();
      if (reply === undefined) {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no reply queued for ${request.url}` } }));
        return;
      }
      response.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    queue: (...more) => void replies.push(...more),
    reset: () => {
      replies.length = 0;
      requests.length = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A manifest entry of the recorded streams, the fields these tests read. */
export interface Recording {
  readonly id: string;
  readonly kind: string;
  readonly transport: string;
  readonly wire: string;
  readonly status: number;
  readonly contentType: string;
  readonly file: string;
  readonly tags?: readonly string[];
  readonly expect: any;
}

/**
 * A recording's body as the live service sent it, per the folder's README: `sse` and `json` as
 * recorded; `vercel-chunks` (one JSON event per line) re-framed as `event: <type>` + `data:` events
 * (Anthropic, Responses) or `data:` events with CRLF (Gemini). A `.gz` file is unzipped.
 */
export function recordedReply(root: string, recording: Recording, provider: 'anthropic' | 'gemini' | 'openai-responses'): Reply {
  const raw = readFileSync(join(root, recording.file));
  const bytes = recording.file.endsWith('.gz') ? gunzipSync(raw) : raw;
  if (recording.wire !== 'vercel-chunks') return { status: recording.status, contentType: recording.contentType, body: bytes };
  const lines = bytes.toString('utf8').split('\n').filter((line) => line.trim() !== '');
  const framed = lines.map((line) => (provider === 'gemini' ? `data: ${line}\r\n\r\n` : `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`)).join('');
  return { status: recording.status, contentType: 'text/event-stream', body: Buffer.from(framed) };
}
