import { createAgent, createHarness, defineTool, type AssistantMessage } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { useLoopbackServer, type LoopbackServer, type RecordedRequest } from '../../llm-openai/test/loopback-server.js';
import { loopbackModel } from './anthropic-call.js';
import { lastMarked, prefixThrough, validateMessagesRequest } from './messages-api-validator.js';
import { sseAnswer } from './sse-answer.js';

let server: LoopbackServer;
useLoopbackServer((started) => (server = started));

// Signatures as the API sends them: long base64 with '+', '/' and '=' that must come back unchanged.
const SIG1 = 'EqQBCkYIBxgCKkDp8h/1+vQ2x0zR9k3mN5oP7qR8sT0uV2wX4yZ6aB8cD0eF2gH4iJ6kL8mN0oP2qR4sT6uV8wX0yZ2aB4cD6eF8g==';
const SIG3 = 'ErcBCkYIBxgCKkAa1b2c3d4e5f6g7h8i9j0k+/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijklmnopqrstuv==';
const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YsoVkZQo3z2L6hZoQMfIHmN6oNRO1Ww2jM5XyVRiuupLmm==';

function files() {
  const contents: Record<string, string> = { 'a.txt': 'alpha', 'b.txt': 'beta', 'c.txt': 'gamma' };
  return defineTool({
    name: 'read_file',
    description: 'Reads a text file.',
    tier: 'read-only',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    execute: ({ path }) => contents[path] ?? `no such file ${path}`,
  });
}

describe('a three-step tool loop with thinking and caching on, against a server that checks every request as the API would', () => {
  it('is accepted at every step: signatures unchanged, thinking before tool use, results paired, at most four breakpoints, each step reading what the last wrote', async () => {
    const problems: string[] = [];
    // The thinking blocks the server sent with each answer, by its first tool call's id.
    const issued = new Map<string, Record<string, unknown>[]>([
      ['toolu_a', [{ type: 'thinking', thinking: 'The user wants a.txt first.', signature: SIG1 }]],
      ['toolu_b', [{ type: 'redacted_thinking', data: REDACTED }, { type: 'thinking', thinking: 'Now b and c, at once.', signature: SIG3 }]],
    ]);
    const check = (request: RecordedRequest) => {
      const found = validateMessagesRequest(request.json as Record<string, unknown>, issued);
      problems.push(...found.map((problem) => `request ${server.requests.length}: ${problem}`));
      return found.length === 0 ? undefined : { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: found.join('; ') } } };
    };
    server.script(
      (request) => check(request) ?? sseAnswer([...(issued.get('toolu_a') as never[]), { type: 'text', text: 'Reading a.txt.' }, { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.txt' } }], 'tool_use', { input_tokens: 40, output_tokens: 30, cache_creation_input_tokens: 1200 }),
      (request) =>
        check(request) ??
        sseAnswer([...(issued.get('toolu_b') as never[]), { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.txt' } }, { type: 'tool_use', id: 'toolu_c', name: 'read_file', input: { path: 'c.txt' } }], 'tool_use', {
          input_tokens: 30,
          output_tokens: 40,
          cache_read_input_tokens: 1200,
          cache_creation_input_tokens: 90,
        }),
      (request) => check(request) ?? sseAnswer([{ type: 'thinking', thinking: 'All read.', signature: 'EpwBfinal==' }, { type: 'text', text: 'alpha, beta, gamma.' }], 'end_turn', { input_tokens: 20, output_tokens: 10, cache_read_input_tokens: 1290, cache_creation_input_tokens: 120 }),
    );
    const harness = createHarness();
    harness.tools.register(files());
    const { model } = loopbackModel(server);
    const agent = createAgent({ model, harness, system: 'You read files for the user.', modelOptions: { reasoning: { budgetTokens: 2048 } }, budget: { costUsd: 1 } });

    const result = await agent.turn('Read a.txt, then b.txt and c.txt.', { onEvent: () => undefined });

    expect(problems).toEqual([]);
    expect(result).toMatchObject({ stopReason: 'stop', text: 'alpha, beta, gamma.' });
    expect(server.requests).toHaveLength(3);
    const bodies = server.requests.map((request) => request.json as Record<string, unknown>);
    for (const body of bodies) expect(body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, stream: true });

    // Step 3 sends step 2's answer as it came: redacted thinking, thinking with its signature, then both calls;
    // and both results in one user message, in call order.
    const messages = bodies[2]!['messages'] as { role: string; content: Record<string, unknown>[] }[];
    expect(messages[3]!.content.map((block) => block['type'])).toEqual(['redacted_thinking', 'thinking', 'tool_use', 'tool_use']);
    expect(messages[3]!.content[1]).toEqual({ type: 'thinking', thinking: 'Now b and c, at once.', signature: SIG3 });
    expect(messages[4]!.content.map((block) => [block['tool_use_id'], block['content']])).toEqual([['toolu_b', 'beta'], ['toolu_c', 'gamma']]);

    // Caching: the tools, the system prompt and the history are marked, and each step's marked
    // prefix is, byte for byte, the start of the next step's request.
    for (let step = 0; step < bodies.length; step++) {
      const body = bodies[step]!;
      expect((body['tools'] as Record<string, unknown>[]).at(-1)!['cache_control']).toEqual({ type: 'ephemeral' });
      expect((body['system'] as Record<string, unknown>[]).at(-1)!['cache_control']).toEqual({ type: 'ephemeral' });
      if (step === 0) continue;
      const cut = lastMarked(bodies[step - 1]!)!;
      expect(prefixThrough(body, cut)).toBe(prefixThrough(bodies[step - 1]!, cut));
      // ...and that point is still marked, so this step reads it.
      const [mi, bi] = cut;
      expect((body['messages'] as { content: Record<string, unknown>[] }[])[mi]!.content[bi]!['cache_control']).toEqual({ type: 'ephemeral' });
    }

    // Usage counts every input token; the cache's share is reported, and priced at its own rates.
    expect(result.usage).toEqual({ inputTokens: 40 + 1200 + 30 + 1200 + 90 + 20 + 1290 + 120, outputTokens: 80, cacheReadTokens: 2490, cachedInputTokens: 2490, cacheWriteTokens: 1410 });
    const stored = agent.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
    expect(stored[1]!.parts![0]).toEqual({ type: 'reasoning', text: '', providerData: { anthropic: { redactedData: REDACTED } } });
  });
});

describe('the validating server', () => {
  const sent = [{ type: 'thinking', thinking: 'x', signature: 'sig==' }];
  const issued = new Map([['t1', sent]]);
  const body = (assistant: Record<string, unknown>[], results: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
    thinking: { type: 'enabled', budget_tokens: 1024 },
    messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, { role: 'assistant', content: assistant }, { role: 'user', content: results }],
    ...extra,
  });
  const use = { type: 'tool_use', id: 't1', name: 'f', input: {} };
  const result = { type: 'tool_result', tool_use_id: 't1', content: 'ok' };

  it('accepts a well-formed loop and refuses each mistake the API refuses', () => {
    expect(validateMessagesRequest(body([...sent, use], [result]), issued)).toEqual([]);
    expect(validateMessagesRequest(body([{ ...sent[0], signature: 'sig=' }, use], [result]), issued).join()).toMatch(/unmodified/);
    expect(validateMessagesRequest(body([use, ...sent], [result]), issued).join()).toMatch(/before tool_use|expected thinking/);
    expect(validateMessagesRequest(body([use], [result]), new Map()).join()).toMatch(/expected thinking/);
    expect(validateMessagesRequest(body([...sent, use], [{ type: 'text', text: 'hi' }]), issued).join()).toMatch(/tool_result/);
    const marked = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    expect(validateMessagesRequest(body([...sent, use], [result, marked, marked, marked, marked, marked]), issued).join()).toMatch(/maximum of 4/);
  });
});
