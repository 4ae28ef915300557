import { describe, expect, it } from 'vitest';
import { createAgent, createHarness, defineTool, type ContentPart, type LanguageModel, type ModelRequest } from '@weir/core';
import { harnessWith } from '../support.js';

// A 1x1 PNG: 70 bytes.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const params = { type: 'object', properties: {} } as const;
const call = { id: 'c1', name: 'shot', arguments: {} };

const partsTool = (parts: unknown) =>
  defineTool({
    name: 'shot',
    description: 'Returns content parts.',
    tier: 'read-only',
    parameters: params,
    output: { render: () => parts as readonly ContentPart[] },
    execute: () => 'value',
  });

describe('content parts in results', () => {
  it('a renderer may return parts: result.parts holds them all, result.content their text', async () => {
    const harness = await harnessWith([
      partsTool([
        { type: 'text', text: 'Screenshot of the page:' },
        { type: 'image', data: PNG, mediaType: 'image/png' },
        { type: 'resource', uri: 'file:///tmp/page.html', name: 'page.html', mediaType: 'text/html' },
      ]),
    ]);
    const result = await harness.executeToolCall(call);
    expect(result).toMatchObject({ ok: true, content: 'Screenshot of the page:\n\n[resource: page.html <file:///tmp/page.html>]' });
    expect(result.parts).toEqual([
      { type: 'text', text: 'Screenshot of the page:' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'resource', uri: 'file:///tmp/page.html', name: 'page.html', mediaType: 'text/html' },
    ]);
    expect(Object.isFrozen(result.parts![1])).toBe(true);
  });

  it('text-only content stays a string: no parts, whatever the renderer returned', async () => {
    const harness = await harnessWith([partsTool([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }])]);
    const result = await harness.executeToolCall(call);
    expect(result.content).toBe('a\n\nb');
    expect('parts' in result).toBe(false);
    const plain = createHarness();
    plain.tools.register(defineTool({ name: 'echo', description: 'Echo.', tier: 'read-only', parameters: params, execute: () => 'hi' }));
    expect(Object.keys(await plain.executeToolCall({ id: 'c', name: 'echo', arguments: {} }))).not.toContain('parts');
  });

  it('malformed parts are INVALID_OUTPUT saying what is wrong', async () => {
    for (const [parts, why] of [
      [[{ type: 'image', data: 'not base64!', mediaType: 'image/png' }], 'image data must be base64'],
      [[{ type: 'video', url: 'x' }], 'unknown part type "video"'],
      [42, 'number, not a string or content parts'],
    ] as const) {
      const result = await (await harnessWith([partsTool(parts)])).executeToolCall(call);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT' } });
      expect(result.content).toContain(why);
    }
  });

  it('finalizeContent taps see the text parts only, never an image; addContext keeps the parts', async () => {
    const seen: string[] = [];
    const harness = await harnessWith([partsTool([{ type: 'text', text: 'token=secret' }, { type: 'image', data: PNG, mediaType: 'image/png' }])], (ctx) => {
      ctx.hooks.finalizeContent.tap((content) => (seen.push(content), content.replace('secret', '***')));
      ctx.hooks.postExecute.tap(() => ({ action: 'addContext', text: 'note from a plugin' }));
    });
    const result = await harness.executeToolCall(call);
    expect(seen).toEqual(['token=secret']);
    expect(result.parts).toEqual([
      { type: 'text', text: 'token=***' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'text', text: 'note from a plugin' },
    ]);
    expect(result.content).toBe('token=***\n\nnote from a plugin');
  });

  it('the content cap counts text characters; an image over its byte cap is replaced by a note, never cut', async () => {
    const harness = await harnessWith(
      [partsTool([{ type: 'text', text: 'x'.repeat(50) }, { type: 'image', data: PNG, mediaType: 'image/png' }, { type: 'text', text: 'y'.repeat(50) }])],
      undefined,
      { maxContentChars: 60, maxImageBytes: 10 },
    );
    const result = await harness.executeToolCall(call);
    const parts = result.parts ?? [];
    // 50 x, the image's note (not counted: it stands for an image), then 10 of the 50 y and the cut's note.
    expect(parts.map((part) => (part.type === 'text' ? part.text : part.type))).toEqual([
      'x'.repeat(50),
      '[image: 70 B image/png, not shown: over the 10 B image limit]',
      `${'y'.repeat(10)}\n[... truncated: 40 more characters not shown]`,
    ]);
    expect(parts.some((part) => part.type === 'image')).toBe(false);
    expect(JSON.stringify(parts)).toContain('truncated');
  });
});

describe('content parts in messages', () => {
  it('a tool message carries the result parts, and agent.turn takes parts for a user message', async () => {
    const harness = await harnessWith([partsTool([{ type: 'text', text: 'here' }, { type: 'image', data: PNG, mediaType: 'image/png' }])]);
    const requests: ModelRequest['messages'][] = [];
    const model: LanguageModel = {
      id: 'test:parts',
      complete: async (request) => {
        requests.push([...request.messages]);
        return requests.length === 1
          ? { text: '', toolCalls: [call], finishReason: 'tool_calls' }
          : { text: 'seen', toolCalls: [], finishReason: 'stop' };
      },
    };
    const agent = createAgent({ model, harness });
    await agent.turn([{ type: 'text', text: 'what is in this picture?' }, { type: 'image', data: PNG, mediaType: 'image/png' }]);
    expect(requests[0]![0]).toEqual({ role: 'user', content: 'what is in this picture?', parts: [{ type: 'text', text: 'what is in this picture?' }, { type: 'image', data: PNG, mediaType: 'image/png' }] });
    expect(requests[1]![2]).toMatchObject({ role: 'tool', content: 'here', parts: [{ type: 'text', text: 'here' }, { type: 'image', mediaType: 'image/png' }] });
    await expect(agent.turn([{ type: 'image' }] as never)).rejects.toThrow(/text must be a string or content parts/);
  });
});
