import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers: each mode is a path prefix of the base URL (`<url>/<mode>/v1`). */
export type ServerMode = '401' | '404' | '500' | 'garbage' | 'stall' | 'ok';

/** What a request carried. */
export interface SeenRequest {
  readonly mode: string;
  readonly authorization: string | undefined;
  readonly body: { messages: { role: string; content?: string | null }[] };
}

/** A loopback stand-in for a Chat Completions server that fails in the ways real ones do. */
export interface ModelServer {
  readonly baseURL: (mode: ServerMode) => string;
  readonly requests: SeenRequest[];
  readonly close: () => Promise<void>;
}

/** Starts the stand-in on 127.0.0.1, port 0. `ok` answers with text quoting the last user message. */
export async function startModelServer(): Promise<ModelServer> {
  const requests: SeenRequest[] = [];
  const stalled = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer(async (request, response) => {
    const mode = request.url?.split('/')[1] ?? '';
    const body = JSON.parse((await readAll(request)) || '{}') as SeenRequest['body'];
    requests.push({ mode, authorization: request.headers.authorization, body });
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    switch (mode) {
      case '401':
        return json(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
      case '404':
        return json(404, { error: { message: 'The model `nope` does not exist.', type: 'invalid_request_error', code: 'model_not_found' } });
      case '500':
        return json(500, { error: { message: 'The server had an error while processing your request.' } });
      case 'garbage':
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<html><body>Welcome to nginx!</body></html>');
      case 'stall':
        // Headers never come: the client's idle timer is all that ends the wait.
        stalled.add(response);
        return;
      default: {
        const question = body.messages?.filter((message) => message.role === 'user').at(-1)?.content ?? '';
        return json(200, {
          id: 'x',
          object: 'chat.completion',
          model: 'stand-in',
          choices: [{ index: 0, message: { role: 'assistant', content: `You asked: ${String(question)}` }, finish_reason: 'stop' }],
        });
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: (mode) => `http://127.0.0.1:${port}/${mode}/v1`,
    requests,
    close: async () => {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback address where nothing listens: a port that was free a moment ago. */
export async function refusedBaseURL(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

async function readAll(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}
