// A stand-in for an OpenAI-compatible Chat Completions server on 127.0.0.1 (port 0), scripted by
// the conversation: a user message "call <tool> <json>" is answered with that tool call; after a
// tool result the answer is "<tool> said: <its content>"; anything else is "You said: <text>".
// It streams (SSE) when the request asks to, as weir's adapter does. For tests only: the hosted
// model is the one thing that is stood in for.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface WireMessage {
  readonly role: string;
  readonly content?: string | null;
  readonly name?: string;
  readonly tool_call_id?: string;
}

export interface ModelServer {
  /** The base URL (`http://127.0.0.1:<port>/v1`). */
  readonly baseURL: string;
  /** Every request body seen. */
  readonly requests: { messages: WireMessage[]; stream?: boolean }[];
  readonly close: () => Promise<void>;
}

const CALL = /^call (\w+) (.*)$/s;

export async function startModelServer(): Promise<ModelServer> {
  const requests: ModelServer['requests'] = [];
  let calls = 0;
  const open = new Set<ServerResponse>();
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    open.add(response);
    response.on('close', () => open.delete(response));
    const body = JSON.parse((await readAll(request)) || '{}') as ModelServer['requests'][number];
    requests.push(body);
    const last = body.messages.at(-1);
    let text = '';
    let toolCall: { id: string; name: string; arguments: string } | undefined;
    if (last?.role === 'tool') {
      const call = [...body.messages].reverse().find((message) => message.role === 'assistant') as { tool_calls?: { function: { name: string } }[] } | undefined;
      text = `${call?.tool_calls?.[0]?.function.name ?? 'the tool'} said: ${last.content ?? ''}`;
    } else {
      const said = String(last?.content ?? '');
      const command = CALL.exec(said);
      if (command) {
        calls += 1;
        toolCall = { id: `call_${calls}`, name: command[1]!, arguments: command[2]! };
      } else text = `You said: ${said}`;
    }
    const message = toolCall
      ? { role: 'assistant', content: null, tool_calls: [{ id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: toolCall.arguments } }] }
      : { role: 'assistant', content: text };
    const finish = toolCall ? 'tool_calls' : 'stop';
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'stand-in', choices: [{ index: 0, message, finish_reason: finish }] }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: unknown, finishReason: string | null = null) =>
      response.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'stand-in', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
    if (toolCall) {
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: toolCall.arguments } }] });
    } else {
      chunk({ role: 'assistant', content: '' });
      for (const piece of text.match(/.{1,12}/gs) ?? []) chunk({ content: piece });
    }
    chunk({}, finish);
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on: bound, then closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function readAll(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (piece: string) => (text += piece));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}
