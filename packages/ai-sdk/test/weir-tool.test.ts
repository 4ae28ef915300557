import { createHarness, type Harness } from '@weir/core';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromAiSdkTools, weirTool } from '../src/index.js';
import { AI_SDK_MAJOR, aiSdkKit, type AiSdkKit } from './ai-sdk-kit.js';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let kit: AiSdkKit;
beforeAll(async () => {
  kit = await aiSdkKit();
});

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

describe(`AI SDK ${AI_SDK_MAJOR} tools as weir tools`, () => {
  it('a ToolSet loads as a plugin; a zod tool gets the weir call id and signal, and weir validates its input', async () => {
    const seen: { toolCallId: string; aborted: boolean }[] = [];
    const tools = {
      weather: kit.ai.tool({
        description: 'The weather in a city.',
        inputSchema: z.object({ city: z.string().min(2) }),
        execute: async ({ city }, { toolCallId, abortSignal }) => {
          seen.push({ toolCallId, aborted: abortSignal?.aborted ?? true });
          return { city, celsius: 21 };
        },
      }),
    };
    harness = createHarness();
    await harness.use(fromAiSdkTools(tools, { name: 'weather-tools', tier: 'read-only', server: 'weather-package' }));

    expect(harness.plugins()).toEqual(['weather-tools']);
    expect(harness.tools.get('weather')).toMatchObject({ tier: 'read-only', source: { plugin: 'weather-tools', server: 'weather-package' } });
    expect(harness.tools.schemas()[0]!.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] });

    const ok = await harness.executeToolCall({ id: 'call-1', name: 'weather', arguments: '{"city":"Oslo"}' });
    expect(ok).toMatchObject({ ok: true, value: { city: 'Oslo', celsius: 21 } });
    expect(ok.content).toContain('"celsius": 21');
    expect(seen).toEqual([{ toolCallId: 'call-1', aborted: false }]);

    const bad = await harness.executeToolCall({ id: 'call-2', name: 'weather', arguments: { city: 'X' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(seen).toHaveLength(1);
  });

  it("a jsonSchema() tool keeps its validator, which may refuse or transform the input", async () => {
    const calls: unknown[] = [];
    const shout = kit.ai.tool({
      description: 'Shouts.',
      inputSchema: kit.ai.jsonSchema<{ text: string }>(
        { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        { validate: (value) => ((value as { text: string }).text === 'no' ? { success: false, error: new Error('"no" is not allowed') } : { success: true, value: { text: (value as { text: string }).text.toUpperCase() } }) },
      ),
      execute: async (input) => {
        calls.push(input);
        return input.text;
      },
    });
    harness = createHarness();
    harness.tools.register(weirTool(shout, { name: 'shout' }));
    expect(harness.tools.get('shout')!.tier).toBe('dangerous');

    expect(await harness.executeToolCall({ id: 'a', name: 'shout', arguments: { text: 'hi' } })).toMatchObject({ ok: true, content: 'HI' });
    const refused = await harness.executeToolCall({ id: 'b', name: 'shout', arguments: { text: 'no' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS', message: 'shout: "no" is not allowed' } });
    const wrongType = await harness.executeToolCall({ id: 'c', name: 'shout', arguments: { text: 1 } });
    expect(wrongType).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(calls).toEqual([{ text: 'HI' }]);
  });

  it('toModelOutput decides what the model reads: content with an image becomes weir parts, error-text a failure', async () => {
    harness = createHarness();
    await harness.use(
      fromAiSdkTools({
        look: kit.ai.tool({
          description: 'Looks.',
          inputSchema: z.object({}),
          execute: async () => ({ png: PIXEL }),
          toModelOutput: ({ output }) => ({ type: 'content', value: [{ type: 'text', text: 'a pixel:' }, { type: 'image-data', data: output.png, mediaType: 'image/png' }] }),
        }),
        broken: kit.ai.tool({
          description: 'Fails politely.',
          inputSchema: z.object({}),
          execute: async () => 'x',
          toModelOutput: () => ({ type: 'error-text', value: 'the service is down' }),
        }),
      }),
    );
    const look = await harness.executeToolCall({ id: 'l', name: 'look', arguments: {} });
    expect(look).toMatchObject({ ok: true, content: 'a pixel:' });
    expect(look.parts).toEqual([{ type: 'text', text: 'a pixel:' }, { type: 'image', data: PIXEL, mediaType: 'image/png' }]);
    const broken = await harness.executeToolCall({ id: 'b', name: 'broken', arguments: {} });
    expect(broken).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED', message: 'the service is down' } });
  });

  it('a streaming execute resolves to its last output, each earlier one a progress report', async () => {
    harness = createHarness({ progressIntervalMs: 0 });
    harness.tools.register(
      weirTool(
        kit.ai.tool({
          description: 'Counts.',
          inputSchema: z.object({}),
          execute: async function* () {
            yield 'one';
            yield 'two';
            yield 'three';
          },
        }),
        { name: 'count', tier: 'read-only' },
      ),
    );
    const reports: unknown[] = [];
    const result = await harness.executeToolCall({ id: 'c', name: 'count', arguments: {} }, { onProgress: (update) => reports.push(update) });
    expect(result).toMatchObject({ ok: true, value: 'three' });
    expect(reports).toEqual([
      { message: 'preliminary result', progress: 1 },
      { message: 'preliminary result', progress: 2 },
    ]);
  });

  it("an abort of the weir call reaches the AI SDK tool's abortSignal", async () => {
    let sawAbort = false;
    harness = createHarness();
    harness.tools.register(
      weirTool(
        kit.ai.tool({
          description: 'Waits.',
          inputSchema: z.object({}),
          execute: (_input, { abortSignal }) =>
            new Promise((_resolve, reject) => {
              abortSignal!.addEventListener('abort', () => {
                sawAbort = true;
                reject(abortSignal!.reason);
              });
              queueMicrotask(() => controller.abort());
            }),
        }),
        { name: 'wait' },
      ),
    );
    const controller = new AbortController();
    const result = await harness.executeToolCall({ id: 'w', name: 'wait', arguments: {} }, { signal: controller.signal });
    expect(result).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    expect(sawAbort).toBe(true);
  });

  it('what weir cannot run is a one-line TypeError naming the tool', () => {
    expect(() => weirTool(kit.ai.tool({ description: 'Client side.', inputSchema: z.object({}) }) as never, { name: 'ask_user' })).toThrow(/weirTool\("ask_user"\): the tool has no execute function/);
    expect(() => weirTool({ description: 'Old zod.', inputSchema: z3.object({ a: z3.string() }), execute: () => 'x' }, { name: 'old' })).toThrow(/weirTool\("old"\): its zod schema cannot give JSON Schema/);
    expect(() => weirTool({ description: 'Later.', inputSchema: kit.ai.jsonSchema(Promise.resolve({ type: 'object' })), execute: () => 'x' }, { name: 'later' })).toThrow(/its JSON Schema is a promise/);
    expect(() => fromAiSdkTools(null as never)).toThrow(/expected an AI SDK ToolSet/);
  });
});
