import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createHarness, defineTool, type Harness } from '@weir/core';
import { createFileSessionStore } from '@weir/session';
import { afterEach, describe, expect, it } from 'vitest';
import { useLoopbackServer, type LoopbackServer, type RecordedRequest, type ScriptedResponse } from '../../llm-openai/test/loopback-server.js';
import { createGoogleModel } from '../src/index.js';

// A three-step tool loop with thinking on, against a loopback server that checks each request the
// way Gemini 3 needs it: every thoughtSignature back on the part it came with (the first call of a
// step, an empty text part after the calls, the final text), the function responses of a step in one
// user turn, paired with their calls by name and order (Gemini sent no ids), the calls' own ids
// sent only when Gemini gave them.

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

/** A signature as Gemini sends them: long base64, the same bytes must come back. */
const sig = (name: string) => `Cs0BAb4+9vt${name}${'Q2hlY2s+/='.repeat(30)}`;
const call = (path: string) => ({ functionCall: { name: 'read_file', args: { path } } });
const reply = (path: string) => ({ functionResponse: { name: 'read_file', response: { output: files[path] } } });

/** One streamed answer: `data:` events with CRLF, no terminator; thought first, then `parts`, then the finish with usage. */
function answer(step: number, parts: readonly Record<string, unknown>[]): ScriptedResponse {
  const chunks = [
    { candidates: [{ content: { role: 'model', parts: [{ text: `Thinking ${step}.`, thought: true }] }, index: 0 }], responseId: `r${step}` },
    ...parts.map((part) => ({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }], responseId: `r${step}` })),
    { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 100 * step, candidatesTokenCount: 10, thoughtsTokenCount: 30, totalTokenCount: 100 * step + 40 }, responseId: `r${step}` },
  ];
  return { headers: { 'content-type': 'text/event-stream' }, body: chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('') };
}

/** A scripted step that first checks the request it answers. */
function expecting(contents: unknown[], respond: ScriptedResponse): (request: RecordedRequest) => ScriptedResponse {
  return (request) => {
    const body = request.json as Record<string, unknown>;
    expect(request.path).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    expect(body['generationConfig']).toEqual({ thinkingConfig: { includeThoughts: true, thinkingLevel: 'high' } });
    expect(body['contents']).toEqual(contents);
    for (const found of request.body.matchAll(/"thoughtSignature":("[^"]*")/g)) expect(JSON.stringify(contents)).toContain(found[1]!);
    return respond;
  };
}

const model = () => createGoogleModel({ baseURL: `${server.origin}/v1beta`, apiKey: 'AIza-loopback-0123456789', model: 'gemini-3-pro-preview', maxRetries: 0 });
const user = (text: string) => ({ role: 'user', parts: [{ text }] });
// What Gemini said at each step, and what must go back for it (thought summaries need not).
const step1 = [{ ...call('a.txt'), thoughtSignature: sig('one') }];
const step2 = [{ ...call('b.txt'), thoughtSignature: sig('two') }, call('c.txt'), { text: '', thoughtSignature: sig('two-end') }];
const step3 = [{ text: 'alpha beta gamma', thoughtSignature: sig('three') }];

describe('a three-step tool loop over Gemini, thinking on', () => {
  it('sends every thought signature back on its own part, and the responses of a step in one turn, in call order', async () => {
    server.script(
      expecting([user('read a, then b and c')], answer(1, step1)),
      expecting([user('read a, then b and c'), { role: 'model', parts: step1 }, { role: 'user', parts: [reply('a.txt')] }], answer(2, step2)),
      expecting(
        [user('read a, then b and c'), { role: 'model', parts: step1 }, { role: 'user', parts: [reply('a.txt')] }, { role: 'model', parts: step2 }, { role: 'user', parts: [reply('b.txt'), reply('c.txt')] }],
        answer(3, step3),
      ),
    );
    const agent = createAgent({ model: model(), harness: harness(), modelOptions: { reasoning: 'high' } });
    const result = await agent.turn('read a, then b and c');
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('alpha beta gamma');
    expect(server.pending).toBe(0);
    expect(result.usage).toMatchObject({ inputTokens: 600, outputTokens: 120, reasoningTokens: 90 });
  });

  it('reopens from its session with the signatures intact and goes on with them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-gemini-'));
    const store = createFileSessionStore(dir);
    server.script(expecting([user('read a')], answer(1, step1)), expecting([user('read a'), { role: 'model', parts: step1 }, { role: 'user', parts: [reply('a.txt')] }], answer(2, step3)));
    const session = await store.create({ id: 'gemini' });
    await createAgent({ model: model(), harness: harness(), session, modelOptions: { reasoning: 'high' } }).turn('read a');
    await session.close();

    const reopened = await store.open('gemini');
    server.script(expecting([user('read a'), { role: 'model', parts: step1 }, { role: 'user', parts: [reply('a.txt')] }, { role: 'model', parts: step3 }, user('and b?')], answer(3, [{ text: 'beta', thoughtSignature: sig('four') }])));
    const result = await createAgent({ model: model(), harness: harness(), session: reopened, modelOptions: { reasoning: 'high' } }).turn('and b?');
    await reopened.close();
    expect(result.text).toBe('beta');
    expect(server.pending).toBe(0);
  });
});
