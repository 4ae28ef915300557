import { createAgent, createHarness, definePlugin, defineTool, type ApprovalRequest, type ApprovalResponse, type Harness } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer, serveHarness, type McpElicitAnswer, type McpElicitation } from '../src/index.js';
import { fixture, NODE } from './servers.js';

// A real MCP server (the SDK's McpServer over stdio) whose tools elicit and sample; the answers
// it got come back as the tools' results.
const server = (name: string, extra: Record<string, unknown> = {}) =>
  mcpServer({ name, command: NODE, args: [fixture('asking-server.mjs')], tiers: { '*': 'read-only' }, ...extra });

/** An approver plugin that records what it is asked and answers from `answers`. */
function approver() {
  const asked: ApprovalRequest[] = [];
  let answer: (request: ApprovalRequest) => ApprovalResponse = () => ({ decision: 'allow' });
  const plugin = definePlugin({
    name: 'test-approver',
    setup(ctx) {
      ctx.approval.setResponder((request) => {
        asked.push(request);
        return answer(request);
      });
    },
  });
  return { plugin, asked, answerWith: (next: typeof answer) => void (answer = next) };
}

const call = async (harness: Harness, name: string) => {
  const result = await harness.executeToolCall({ id: `c-${name}-${Math.random()}`, name, arguments: {} });
  if (!result.ok) throw new Error(result.content);
  return JSON.parse(result.content) as Record<string, any>;
};

describe('elicitation through the harness approver', () => {
  let harness: Harness;
  const person = approver();
  beforeAll(async () => {
    harness = createHarness();
    await harness.use(person.plugin);
    await harness.use(server('ask'));
  });
  afterAll(() => harness?.close());
  afterEach(() => {
    person.asked.length = 0;
    person.answerWith(() => ({ decision: 'allow' }));
  });

  it('declares elicitation (form and URL) and no sampling without a model', async () => {
    const caps = await call(harness, 'ask__capabilities');
    expect(caps.elicitation).toEqual({ form: {}, url: {} });
    expect(caps.sampling).toBeUndefined();
  });

  it('a form: the approver is shown the fields and the answer (the defaults), and the server gets it', async () => {
    expect(await call(harness, 'ask__form')).toEqual({ action: 'accept', content: { name: 'Ada', count: 3, color: 'blue', tags: ['a'] } });
    expect(person.asked).toHaveLength(1);
    const [asked] = person.asked;
    expect(asked).toMatchObject({ origin: 'plugin', askedBy: 'mcp:ask', toolName: 'ask__form' });
    expect(asked!.reason).toContain('The MCP server "ask" asks for information: Who are you?');
    expect(asked!.arguments).toMatchObject({ server: 'ask', message: 'Who are you?', answer: { name: 'Ada', count: 3, color: 'blue', tags: ['a'] } });
    expect((asked!.arguments.fields as { name: string }[]).map((field) => field.name)).toEqual(['name', 'count', 'color', 'tags', 'note']);
    expect(asked!.arguments.fields).toContainEqual({ name: 'color', type: 'string', required: false, choices: ['red', 'blue'] });
  });

  it('a denied form is declined', async () => {
    person.answerWith(() => ({ decision: 'deny' }));
    expect(await call(harness, 'ask__form')).toEqual({ action: 'decline' });
  });

  it('a form its defaults cannot answer is declined without asking (the approver cannot type a value)', async () => {
    expect(await call(harness, 'ask__form_needs')).toEqual({ action: 'decline' });
    expect(person.asked).toHaveLength(0);
  });

  it('a URL: the approver is shown it and asked to consent; weir does not open it', async () => {
    expect(await call(harness, 'ask__open_url')).toEqual({ action: 'accept' });
    expect(person.asked).toHaveLength(1);
    expect(person.asked[0]!.arguments).toEqual({ server: 'ask', url: 'https://example.test/authorize?session=1', message: 'Authorize the asking server' });
    expect(person.asked[0]!.reason).toContain('open https://example.test/authorize?session=1 in your browser (weir does not open it)');
    person.answerWith(() => ({ decision: 'deny' }));
    expect(await call(harness, 'ask__open_url')).toEqual({ action: 'decline' });
  });
});

describe('no approver', () => {
  let harness: Harness;
  const sampler = createScriptedModel([], { id: 'mock:sampler' });
  beforeAll(async () => {
    harness = createHarness();
    await harness.use(server('lone', { sampling: { model: sampler } }));
  });
  afterAll(() => harness?.close());

  it('every elicitation is declined and sampling refused, at once', async () => {
    expect(await call(harness, 'lone__form')).toEqual({ action: 'decline' });
    expect(await call(harness, 'lone__open_url')).toEqual({ action: 'decline' });
    const sampled = await call(harness, 'lone__sample');
    expect(sampled.error.code).toBe(-1);
    expect(sampled.error.message).toMatch(/declined the sampling request: .*no approver is available/);
    expect(sampler.requests).toHaveLength(0);
  });
});

describe('an elicit answerer', () => {
  let harness: Harness;
  const seen: McpElicitation[] = [];
  let reply: McpElicitAnswer = { action: 'accept', content: { count: 5 } };
  beforeAll(async () => {
    harness = createHarness();
    await harness.use(server('form', { elicit: (request: McpElicitation) => (seen.push(request), reply) }));
  });
  afterAll(() => harness?.close());

  it('fills the form; the schema defaults complete the answer before it is sent', async () => {
    expect(await call(harness, 'form__form')).toEqual({ action: 'accept', content: { name: 'Ada', count: 5, color: 'blue', tags: ['a'] } });
    const [request] = seen;
    expect(request).toMatchObject({ server: 'form', mode: 'form', message: 'Who are you?' });
    expect(request!.mode === 'form' && request!.fields.find((field) => field.name === 'count')).toEqual({ name: 'count', type: 'integer', required: true, default: 3 });
  });

  it('an answer that does not fit the requested schema is declined, never sent', async () => {
    reply = { action: 'accept', content: { count: 50 } };
    expect(await call(harness, 'form__form')).toEqual({ action: 'decline' });
    reply = { action: 'accept', content: { color: 'green' } };
    expect(await call(harness, 'form__form')).toEqual({ action: 'decline' });
    reply = { action: 'accept', content: { token: 'abc' } };
    expect(await call(harness, 'form__form_needs')).toEqual({ action: 'decline' });
    reply = { action: 'accept', content: { token: 'abcd' } };
    expect(await call(harness, 'form__form_needs')).toEqual({ action: 'accept', content: { token: 'abcd' } });
  });

  it('answers a URL request too, and cancel is passed on', async () => {
    reply = { action: 'cancel' };
    expect(await call(harness, 'form__open_url')).toEqual({ action: 'cancel' });
    expect(seen.at(-1)).toMatchObject({ mode: 'url', url: 'https://example.test/authorize?session=1', elicitationId: 'elicit-1' });
  });
});

describe('sampling through the harness model', () => {
  // The agent calls the sampling tool, then answers; the server's sampling is answered by `sampler`.
  const agentModel = () =>
    createScriptedModel([{ toolCalls: [{ name: 'samp__sample' }], usage: { inputTokens: 10, outputTokens: 1 } }, { text: 'done', usage: { inputTokens: 10, outputTokens: 1 } }]);

  it('is declared, approved with the server named and its messages shown, answered by the mock model, charged to the turn', async () => {
    const sampler = createScriptedModel([{ text: '4', usage: { inputTokens: 12, outputTokens: 20 } }], { id: 'mock:sampler' });
    const person = approver();
    const harness = createHarness();
    try {
      await harness.use(person.plugin);
      await harness.use(server('samp', { sampling: { model: sampler, maxTokens: 30 } }));
      expect((await call(harness, 'samp__capabilities')).sampling).toEqual({});
      // outputTokens 15: the agent's one token plus the sampling's 20 spend it, so the turn stops before its second step.
      const result = await createAgent({ harness, model: agentModel(), budget: { outputTokens: 15 } }).turn('go');
      expect(JSON.parse(result.toolResults[0]!.content)).toEqual({ role: 'assistant', content: { type: 'text', text: '4' }, model: 'mock:sampler', stopReason: 'endTurn' });
      expect(sampler.requests[0]!.messages).toEqual([
        { role: 'system', content: 'Answer with a number.' },
        { role: 'user', content: 'What is 2+2?' },
      ]);
      expect(sampler.requests[0]!.options?.maxOutputTokens).toBe(30);
      expect(person.asked).toHaveLength(1);
      expect(person.asked[0]).toMatchObject({ origin: 'plugin', askedBy: 'mcp:samp', toolName: 'samp__sample' });
      expect(person.asked[0]!.reason).toContain('The MCP server "samp" asks weir\'s model (mock:sampler)');
      expect(person.asked[0]!.arguments).toMatchObject({ server: 'samp', messages: [{ role: 'system', text: 'Answer with a number.' }, { role: 'user', text: 'What is 2+2?' }] });
      expect(result.stopReason).toBe('budget_exhausted');
      expect(result.budget).toBe('outputTokens');
    } finally {
      await harness.close();
    }
  });

  it('is refused once the turn budget is spent, without asking or calling the model; a denial is refused too', async () => {
    const sampler = createScriptedModel([], { id: 'mock:sampler' });
    const person = approver();
    const harness = createHarness();
    try {
      await harness.use(person.plugin);
      await harness.use(server('samp', { sampling: { model: sampler } }));
      const spent = await createAgent({ harness, model: agentModel(), budget: { steps: 1 } }).turn('go');
      expect(JSON.parse(spent.toolResults[0]!.content).error).toMatchObject({ code: -1, message: expect.stringContaining("the turn's budget is spent (steps)") });
      expect(person.asked).toHaveLength(0);
      person.answerWith(() => ({ decision: 'deny', message: 'not now' }));
      const denied = await call(harness, 'samp__sample');
      expect(denied.error).toMatchObject({ code: -1, message: expect.stringContaining('not now') });
      expect(sampler.requests).toHaveLength(0);
    } finally {
      await harness.close();
    }
  });
});

describe('weir to weir', () => {
  it("a served harness's approval, asked of its client through elicitation, is answered by the client's approver", async () => {
    const served = createHarness();
    await served.use(
      definePlugin({
        name: 'eraser',
        setup(ctx) {
          ctx.tools.register(defineTool({ name: 'erase', description: 'Needs approval.', tier: 'dangerous', parameters: { type: 'object' }, execute: () => 'erased' }));
          ctx.guards.add(() => ({ decision: 'ask', reason: 'it erases things' }));
        },
      }),
    );
    const token = 'weir-to-weir-token-0123456789abcdef';
    const serving = await serveHarness(served, { name: 'weir-a', http: { port: 0, token } });
    const person = approver();
    const client = createHarness();
    try {
      await client.use(person.plugin);
      await client.use(mcpServer({ name: 'a', url: serving.url!, headers: { authorization: `Bearer ${token}` }, tiers: { '*': 'read-only' } }));
      expect(await client.executeToolCall({ id: 'e1', name: 'a__erase', arguments: {} })).toMatchObject({ ok: true, content: 'erased' });
      expect(person.asked[0]).toMatchObject({ origin: 'plugin', askedBy: 'mcp:a', toolName: 'a__erase', arguments: { server: 'a', answer: {} } });
      expect(person.asked[0]!.arguments.message).toContain('erase');
      person.answerWith(() => ({ decision: 'deny' }));
      expect(await client.executeToolCall({ id: 'e2', name: 'a__erase', arguments: {} })).toMatchObject({ ok: false });
    } finally {
      await client.close();
      await serving.close();
      await served.close();
    }
  });
});
