import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createHarness, definePlugin, defineTool, type Harness } from '@weir/core';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHarness, type ServedHarness } from '../src/index.js';

const TOKEN = 'resume-token-0123456789abcdef0123456789ab';

let harness: Harness | undefined;
let served: ServedHarness | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await served?.close();
  await harness?.close();
  client = served = harness = undefined;
});

/** Resolves when `settle` is called: the test's hand on when the tool goes on. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe('serveHarness: a cut stream resumes', () => {
  it('a tools/call stream cut mid-call: the client reconnects with Last-Event-ID and gets every progress event and the result, once each', async () => {
    const cut = gate();
    harness = createHarness();
    await harness.use(
      definePlugin({
        name: 'steps',
        setup(ctx) {
          ctx.tools.register(
            defineTool({
              name: 'five_steps',
              description: 'Reports five steps.',
              tier: 'read-only',
              parameters: { type: 'object' },
              execute: async (_args, exec) => {
                exec.progress({ progress: 1, total: 5 });
                exec.progress({ progress: 2, total: 5 });
                // The rest happens while the client has no stream: only the event store keeps it.
                await cut.wait;
                for (const step of [3, 4, 5]) exec.progress({ progress: step, total: 5 });
                return 'five steps done';
              },
            }),
          );
        },
      }),
    );
    served = await serveHarness(harness, { name: 'resume', http: { port: 0, token: TOKEN, retryMs: 50 } });

    const requests: string[] = [];
    let cutDone = false;
    // The network, as the client sees it: the call's stream breaks after the second progress event.
    const fetchWithCut = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const headers = new Headers(init?.headers);
      requests.push([init?.method ?? 'GET', body.includes('"tools/call"') ? 'tools/call' : '', headers.has('last-event-id') ? 'last-event-id' : ''].filter(Boolean).join(' '));
      const response = await fetch(url, init);
      if (!body.includes('"tools/call"') || response.body === null) return response;
      let seen = '';
      const cutter = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += new TextDecoder().decode(chunk);
          controller.enqueue(chunk);
          if (!cutDone && (seen.match(/notifications\/progress/g) ?? []).length >= 2) {
            cutDone = true;
            controller.error(new Error('network cut'));
            cut.open();
          }
        },
      });
      return new Response(response.body.pipeThrough(cutter), { status: response.status, headers: response.headers });
    };

    client = new Client({ name: 'resume-client', version: '1.0.0' });
    client.onerror = () => undefined; // the cut is reported here; the call goes on
    await client.connect(new StreamableHTTPClientTransport(served.url!, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } }, fetch: fetchWithCut }));
    const progress: number[] = [];
    const result = await client.callTool({ name: 'five_steps', arguments: {} }, undefined, { onprogress: (update) => progress.push(update.progress), timeout: 10_000 });

    expect(cutDone).toBe(true);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'five steps done' }] });
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    expect(requests).toContain('GET last-event-id');
  });
});
