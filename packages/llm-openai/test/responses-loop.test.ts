import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createHarness, defineTool, type Harness } from '@weir/core';
import { createFileSessionStore } from '@weir/session';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../src/index.js';
import { LOOPBACK_API_KEY, useLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedResponse } from './loopback-server.js';

// A three-step tool loop with reasoning on, against a loopback server that checks each request the
// way the stateless Responses API needs it: every reasoning item back exactly as the last event
// gave it (its encrypted content changes between output_item.added and .done), before the calls it
// led to, each call's output paired with it by call_id in call order, the item ids of this API kept.

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));
let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const files: Record<string, string> = { 'a.txt': 'alpha', 'b.txt': 'beta', 'c.txt': 'gamma' };

function harness(): Harness {
  const created = createHarness();
  created.tools.register(
    defineTool({
      name: 'read_file',
      description: 'Reads a file.',
      tier: 'read-only',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: ({ path }) => files[path] ?? 'missing',
    }),
  );
  return created;
}

/** The encrypted content of reasoning item `n` as `output_item.done` gives it: long, opaque, with the characters JSON escapes. */
const encrypted = (n: number) => `gAAAAAB${'x9+/='.repeat(40)}\u2028"\\${n}`;
const reasoningItem = (n: number, final: boolean) => ({
  id: `rs_${n}`,
  type: 'reasoning',
  encrypted_content: final ? encrypted(n) : `partial-${n}`,
  summary: final ? [{ type: 'summary_text', text: `Thinking ${n}.` }] : [],
});

interface Call {
  readonly callId: string;
  readonly path: string;
}

/** One streamed answer: a reasoning item with its summary, then `calls` (or `text`). */
function answer(step: number, calls: readonly Call[], text?: string): ScriptedResponse {
  const events: Record<string, unknown>[] = [{ type: 'response.created', response: { id: `resp_${step}`, status: 'in_progress', output: [] } }];
  events.push({ type: 'response.output_item.added', output_index: 0, item: reasoningItem(step, false) });
  events.push({ type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: `Thinking ${step}.` });
  events.push({ type: 'response.output_item.done', output_index: 0, item: reasoningItem(step, true) });
  calls.forEach((call, index) => {
    const item = { id: `fc_${call.callId}`, type: 'function_call', call_id: call.callId, name: 'read_file', arguments: '' };
    events.push({ type: 'response.output_item.added', output_index: index + 1, item });
    events.push({ type: 'response.function_call_arguments.delta', output_index: index + 1, delta: JSON.stringify({ path: call.path }) });
    events.push({ type: 'response.output_item.done', output_index: index + 1, item: { ...item, arguments: JSON.stringify({ path: call.path }), status: 'completed' } });
  });
  if (text !== undefined) {
    events.push({ type: 'response.output_item.added', output_index: 1, item: { id: `msg_${step}`, type: 'message', role: 'assistant', content: [] } });
    events.push({ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: text });
  }
  events.push({ type: 'response.completed', response: { id: `resp_${step}`, status: 'completed', output: [], usage: { input_tokens: 100 * step, output_tokens: 20, input_tokens_details: { cached_tokens: 50 }, output_tokens_details: { reasoning_tokens: 12 } } } });
  return { headers: { 'content-type': 'text/event-stream' }, body: events.map((event) => `event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`).join('') };
}

/** The input items this API must be sent for an answered step: its reasoning item exactly, its calls with their ids, their outputs in call order. */
function stepItems(step: number, calls: readonly Call[]): unknown[] {
  return [
    reasoningItem(step, true),
    ...calls.map((call) => ({ type: 'function_call', id: `fc_${call.callId}`, call_id: call.callId, name: 'read_file', arguments: JSON.stringify({ path: call.path }) })),
    ...calls.map((call) => ({ type: 'function_call_output', call_id: call.callId, output: files[call.path] })),
  ];
}

/** A scripted step that first checks the request it answers. */
function expecting(input: unknown[], respond: ScriptedResponse): (request: RecordedRequest) => ScriptedResponse {
  return (request) => {
    const body = request.json as Record<string, unknown>;
    expect(request.path).toBe('/v1/responses');
    expect(body['store']).toBe(false);
    expect(body['include']).toEqual(['reasoning.encrypted_content']);
    expect(body['reasoning']).toEqual({ effort: 'high', summary: 'auto' });
    expect(body['input']).toEqual(input);
    // Byte for byte: the encrypted content is in the request body exactly as the server wrote it.
    for (const item of input) {
      const content = (item as { encrypted_content?: string }).encrypted_content;
      if (content !== undefined) expect(request.body).toContain(JSON.stringify(content));
    }
    return respond;
  };
}

const model = () => createOpenAIModel({ baseURL: server.baseURL, apiKey: LOOPBACK_API_KEY, model: 'gpt-5', api: 'responses', maxRetries: 0 });
const user = (text: string) => ({ role: 'user', content: text });
const first: Call[] = [{ callId: 'call_a', path: 'a.txt' }];
const second: Call[] = [{ callId: 'call_b', path: 'b.txt' }, { callId: 'call_c', path: 'c.txt' }];

describe('a three-step tool loop over the Responses API, reasoning on', () => {
  it('sends every reasoning item back unchanged before its calls, and each output paired with its call', async () => {
    server.script(
      expecting([user('read a, then b and c')], answer(1, first)),
      expecting([user('read a, then b and c'), ...stepItems(1, first)], answer(2, second)),
      expecting([user('read a, then b and c'), ...stepItems(1, first), ...stepItems(2, second)], answer(3, [], 'alpha beta gamma')),
    );
    const agent = createAgent({ model: model(), harness: harness(), modelOptions: { reasoning: 'high' } });
    const result = await agent.turn('read a, then b and c');
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('alpha beta gamma');
    expect(server.pending).toBe(0);
    expect(result.usage).toMatchObject({ inputTokens: 600, outputTokens: 60, cacheReadTokens: 150, reasoningTokens: 36 });
  });

  it('reopens from its session with the reasoning items intact and goes on with them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-responses-'));
    const store = createFileSessionStore(dir);
    server.script(expecting([user('read a')], answer(1, first)), expecting([user('read a'), ...stepItems(1, first)], answer(2, [], 'alpha')));
    const session = await store.create({ id: 'responses' });
    await createAgent({ model: model(), harness: harness(), session, modelOptions: { reasoning: 'high' } }).turn('read a');
    await session.close();

    const reopened = await store.open('responses');
    const answered = [user('read a'), ...stepItems(1, first), reasoningItem(2, true), { type: 'message', role: 'assistant', id: 'msg_2', content: [{ type: 'output_text', text: 'alpha', annotations: [] }] }];
    server.script(expecting([...answered, user('and b?')], answer(3, [], 'beta')));
    const result = await createAgent({ model: model(), harness: harness(), session: reopened, modelOptions: { reasoning: 'high' } }).turn('and b?');
    await reopened.close();
    expect(result.text).toBe('beta');
    expect(server.pending).toBe(0);
  });
});
