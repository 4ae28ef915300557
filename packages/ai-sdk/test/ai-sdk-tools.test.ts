import { createHarness, definePlugin, defineTool, type ApprovalRequest, type ApprovalResponse, type Harness } from '@weir/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aiSdkTools, WeirToolError } from '../src/index.js';
import { AI_SDK_MAJOR, aiSdkKit, type AiSdkKit } from './ai-sdk-kit.js';
import { scriptedModel, toolResultIn } from './scripted-v3-model.js';

// 1x1 transparent PNG.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let kit: AiSdkKit;
beforeAll(async () => {
  kit = await aiSdkKit();
});

interface Fixture {
  readonly harness: Harness;
  readonly written: string[];
  readonly asked: ApprovalRequest[];
  readonly aborted: unknown[];
  /** Resolves when the \`wait\` tool's body has started. */
  readonly waiting: Promise<void>;
}

let open: Harness | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A harness with a read-only tool, a write tool, an image tool and a slow tool; write-tier calls ask the approver. */
async function fixture(answer: ((request: ApprovalRequest) => ApprovalResponse) | undefined): Promise<Fixture> {
  const harness = createHarness();
  open = harness;
  const written: string[] = [];
  const asked: ApprovalRequest[] = [];
  const aborted: unknown[] = [];
  let started!: () => void;
  const waiting = new Promise<void>((resolve) => (started = resolve));
  harness.tools.register(
    defineTool({
      name: 'read_note',
      description: 'Reads the note.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => 'the note',
    }),
  );
  harness.tools.register(
    defineTool({
      name: 'write_note',
      description: 'Writes the note.',
      tier: 'write',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      execute: ({ text }) => {
        written.push(text);
        return `wrote ${text.length} characters`;
      },
    }),
  );
  harness.tools.register(
    defineTool({
      name: 'screenshot',
      description: 'Takes a screenshot.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {} },
      execute: () => 'shot',
      output: { render: () => [{ type: 'text', text: 'the screen:' }, { type: 'image', data: PIXEL, mediaType: 'image/png' }] },
    }),
  );
  harness.tools.register(
    defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      tier: 'read-only',
      parameters: { type: 'object', properties: {} },
      execute: (_args, exec) =>
        new Promise((_resolve, reject) => {
          started();
          exec.signal.addEventListener('abort', () => {
            aborted.push(exec.signal.reason);
            reject(exec.signal.reason);
          });
        }),
    }),
  );
  await harness.use(
    definePlugin({
      name: 'write-asks',
      setup: (ctx) => {
        ctx.guards.add((call) => (call.tier === 'read-only' ? undefined : { decision: 'ask', reason: `${call.toolName} changes files` }));
        if (answer !== undefined) {
          ctx.approval.setResponder((request) => {
            asked.push(request);
            return answer(request);
          });
        }
      },
    }),
  );
  return { harness, written, asked, aborted, waiting };
}

describe(`aiSdkTools with generateText of AI SDK ${AI_SDK_MAJOR}`, () => {
  it('an approved write call runs through weir with the SDK call id, and the model reads its content', async () => {
    const { harness, written, asked } = await fixture(() => ({ decision: 'allow' }));
    const script = scriptedModel(kit, [{ call: { id: 'call-7', name: 'write_note', input: { text: 'hello' } } }, { text: 'done' }]);
    const result = await kit.ai.generateText({ model: script.model, tools: aiSdkTools(harness), prompt: 'write hello', stopWhen: kit.ai.stepCountIs(3) });

    script.assertDone();
    expect(result.text).toBe('done');
    expect(written).toEqual(['hello']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ callId: 'call-7', toolName: 'write_note', tier: 'write', arguments: { text: 'hello' }, reason: 'write_note changes files' });
    const output = result.steps[0]!.toolResults[0]!.output;
    expect(output).toMatchObject({ ok: true, callId: 'call-7', content: 'wrote 5 characters' });
    expect(toolResultIn(script.prompts[1], 'call-7')?.output).toEqual({ type: 'text', value: 'wrote 5 characters' });
  });

  it("a denied call never runs; the SDK records a tool-error and the model reads weir's denial", async () => {
    const { harness, written } = await fixture(() => ({ decision: 'deny', message: 'not that file' }));
    const script = scriptedModel(kit, [{ call: { id: 'call-1', name: 'write_note', input: { text: 'x' } } }, { text: 'understood' }]);
    const result = await kit.ai.generateText({ model: script.model, tools: aiSdkTools(harness), prompt: 'write x', stopWhen: kit.ai.stepCountIs(3) });

    script.assertDone();
    expect(written).toEqual([]);
    const error = result.steps[0]!.content.find((part) => part.type === 'tool-error');
    expect(error?.type === 'tool-error' && error.error).toBeInstanceOf(WeirToolError);
    expect((error as { error: WeirToolError }).error.code).toBe('DENIED');
    const sent = toolResultIn(script.prompts[1], 'call-1')?.output;
    expect(sent?.type).toBe('error-text');
    expect(sent?.type === 'error-text' && sent.value).toMatch(/^Error \[DENIED\]: The user denied this write_note call\. The user said: not that file$/);
  });

  it('with no approver, a call a guard asks about is denied (fails closed)', async () => {
    const { harness, written } = await fixture(undefined);
    const script = scriptedModel(kit, [{ call: { id: 'c', name: 'write_note', input: { text: 'x' } } }, { text: 'ok' }]);
    await kit.ai.generateText({ model: script.model, tools: aiSdkTools(harness), prompt: 'p', stopWhen: kit.ai.stepCountIs(3) });
    expect(written).toEqual([]);
    expect(JSON.stringify(toolResultIn(script.prompts[1], 'c')?.output)).toContain('no approver is available');
  });

  it("arguments that fail the tool's schema come back as weir's INVALID_ARGUMENTS error output", async () => {
    const { harness, written } = await fixture(() => ({ decision: 'allow' }));
    const script = scriptedModel(kit, [{ call: { id: 'c', name: 'write_note', input: { text: 3 } } }, { text: 'ok' }]);
    await kit.ai.generateText({ model: script.model, tools: aiSdkTools(harness), prompt: 'p', stopWhen: kit.ai.stepCountIs(3) });
    expect(written).toEqual([]);
    const sent = toolResultIn(script.prompts[1], 'c')?.output;
    expect(sent?.type).toBe('error-text');
    expect(JSON.stringify(sent)).toContain('INVALID_ARGUMENTS');
  });

  it("an image result reaches the model as the tool's content output", async () => {
    const { harness } = await fixture(undefined);
    const script = scriptedModel(kit, [{ call: { id: 'shot-1', name: 'screenshot', input: {} } }, { text: 'I see it' }]);
    const result = await kit.ai.generateText({ model: script.model, tools: aiSdkTools(harness, { names: ['screenshot'] }), prompt: 'look', stopWhen: kit.ai.stepCountIs(3) });

    expect(result.text).toBe('I see it');
    const sent = toolResultIn(script.prompts[1], 'shot-1')?.output;
    expect(sent?.type).toBe('content');
    const parts = sent?.type === 'content' ? sent.value : [];
    expect(parts[0]).toMatchObject({ type: 'text', text: 'the screen:' });
    // AI SDK 6 passes `image-data` on; 7 may name it a file part: either way the bytes and type arrive.
    expect(parts[1]).toMatchObject({ mediaType: 'image/png' });
    expect(JSON.stringify(parts[1])).toContain(PIXEL);
  });

  it("an abort of generateText reaches the tool body through weir's call signal", async () => {
    const { harness, aborted, waiting } = await fixture(undefined);
    const script = scriptedModel(kit, [{ call: { id: 'w', name: 'wait', input: {} } }]);
    const controller = new AbortController();
    const turn = kit.ai.generateText({ model: script.model, tools: aiSdkTools(harness), prompt: 'wait', abortSignal: controller.signal, stopWhen: kit.ai.stepCountIs(3) });
    await waiting;
    controller.abort(new Error('user pressed stop'));
    // The call settles ABORTED, and the SDK stops before the next model call.
    await expect(turn).rejects.toThrow();
    script.assertDone();
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ message: 'user pressed stop' });
  });

  it("with approval: 'ai-sdk', the SDK's approval request stops the loop, and its approval answers weir's guard", async () => {
    const { harness, written, asked } = await fixture(() => ({ decision: 'deny', message: 'weir approver must not be asked' }));
    const tools = aiSdkTools(harness, { approval: 'ai-sdk' });
    const script = scriptedModel(kit, [{ call: { id: 'call-a', name: 'write_note', input: { text: 'yes' } } }, { text: 'written' }]);

    const first = await kit.ai.generateText({ model: script.model, tools, prompt: 'write yes', stopWhen: kit.ai.stepCountIs(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(written).toEqual([]);

    const approvalId = (request as { approvalId: string }).approvalId;
    const second = await kit.ai.generateText({
      model: script.model,
      tools,
      stopWhen: kit.ai.stepCountIs(3),
      messages: [
        { role: 'user', content: 'write yes' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] },
      ],
    });
    script.assertDone();
    expect(second.text).toBe('written');
    expect(written).toEqual(['yes']);
    expect(asked).toEqual([]);
  });

  it("with approval: 'ai-sdk', a read-only tool needs no SDK approval and a guard's deny still denies", async () => {
    const { harness, written } = await fixture(undefined);
    await harness.use(definePlugin({ name: 'no-notes', setup: (ctx) => void ctx.guards.add((call) => (call.toolName === 'read_note' ? { decision: 'deny', reason: 'notes are private' } : undefined)) }));
    const tools = aiSdkTools(harness, { approval: 'ai-sdk' });
    expect(tools.read_note!.needsApproval).toBeUndefined();
    expect(tools.write_note!.needsApproval).toBeTypeOf('function');
    const script = scriptedModel(kit, [{ call: { id: 'r', name: 'read_note', input: {} } }, { text: 'ok' }]);
    await kit.ai.generateText({ model: script.model, tools, prompt: 'p', stopWhen: kit.ai.stepCountIs(3) });
    expect(JSON.stringify(toolResultIn(script.prompts[1], 'r')?.output)).toContain('notes are private');
    expect(written).toEqual([]);
  });

  it('names picks tools; an unknown name or a bad approval mode is a one-line TypeError', async () => {
    const { harness } = await fixture(undefined);
    expect(Object.keys(aiSdkTools(harness, { names: ['read_note'] }))).toEqual(['read_note']);
    expect(Object.keys(aiSdkTools(harness))).toEqual(['read_note', 'write_note', 'screenshot', 'wait']);
    expect(() => aiSdkTools(harness, { names: ['nope'] })).toThrow(/no tool named "nope" is registered \(registered: read_note, write_note, screenshot, wait\)/);
    expect(() => aiSdkTools(harness, { approval: 'maybe' as 'weir' })).toThrow(TypeError);
  });
});
