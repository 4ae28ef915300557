import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createHarness } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../src/index.js';
import { LOOPBACK_API_KEY, useLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { streamedAnswer } from './scripted-answer.js';

// A 1x1 PNG, 70 bytes.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let server: LoopbackServer;
let root: string;
useLoopbackServer((started) => (server = started));
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'weir-openai-images-'));
  await writeFile(join(root, 'logo.png'), Buffer.from(PNG, 'base64'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** One turn: the model reads logo.png with read_file (through the real tools-fs), then answers. */
async function readTheLogo(acceptsImages: boolean | undefined) {
  const harness = createHarness();
  await harness.use(fsTools({ root }));
  server.script(
    streamedAnswer({ toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'logo.png' } }] }),
    streamedAnswer({ text: 'A tiny logo.' }),
  );
  const model = createOpenAIModel({ baseURL: server.baseURL, apiKey: LOOPBACK_API_KEY, model: 'vision-1', ...(acceptsImages === undefined ? {} : { acceptsImages }) });
  const agent = createAgent({ model, harness });
  const result = await agent.turn('What is in logo.png?');
  await harness.close();
  expect(result.text).toBe('A tiny logo.');
  return (server.requests[1]!.json as { messages: { role: string; content: unknown; tool_call_id?: string }[] }).messages;
}

describe('images on the Chat Completions wire', () => {
  it('an image read by read_file follows the tool message as one user message naming the call', async () => {
    const messages = await readTheLogo(true);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'logo.png: image/png image, 70 bytes\n\n[the image follows in the next user message]' });
    expect(messages[3]!.content).toEqual([
      { type: 'text', text: 'Images from the result of tool call call_1 (read_file):' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it('a model that takes no images (the default) reads a note in its place', async () => {
    const messages = await readTheLogo(undefined);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[2]!.content).toBe('logo.png: image/png image, 70 bytes\n\n[image: 70 B image/png, not shown: this model takes no images]');
  });
});
