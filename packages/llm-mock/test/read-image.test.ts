import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, type LanguageModel, type Message } from '@weir/core';
import { createFileSessionStore } from '@weir/session';
import { fsTools } from '@weir/tools-fs';
import { createMockModel } from '../src/index.js';

// A 1x1 PNG, 70 bytes, saved under a name that does not say it is an image: read_file knows it by its bytes.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'weir-mock-image-'));
  await writeFile(join(root, 'pixel.bin'), Buffer.from(PNG, 'base64'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** The mock model, keeping the messages of every request it gets. */
function watchedMock(requests: Message[][]): LanguageModel {
  const model = createMockModel();
  return { ...model, complete: (request) => (requests.push([...request.messages]), model.complete(request)) };
}

describe('an image read by read_file reaches the mock model', () => {
  it('through the agent: the tool message carries the image and the answer says it saw it', async () => {
    const harness = createHarness();
    await harness.use(fsTools({ root }));
    const requests: Message[][] = [];
    const agent = createAgent({ model: watchedMock(requests), harness });
    const result = await agent.turn('read file pixel.bin');
    await harness.close();

    expect(requests).toHaveLength(2);
    const tool = requests[1]!.find((message) => message.role === 'tool');
    expect(tool?.parts).toContainEqual({ type: 'image', data: PNG, mediaType: 'image/png' });
    expect(result.text).toContain('I see 1 image (image/png, 70 bytes).');
  });

  it('and again after the session is reopened from its file', async () => {
    const sessions = join(root, '.sessions');
    const harness = createHarness();
    await harness.use(fsTools({ root }));
    const session = await createFileSessionStore(sessions).create({ id: 'pixel' });
    await createAgent({ model: createMockModel(), harness, session }).turn('read file pixel.bin');
    await session.close();

    const reopened = await createFileSessionStore(sessions).open('pixel');
    const requests: Message[][] = [];
    const agent = createAgent({ model: watchedMock(requests), harness, session: reopened });
    await agent.turn('hello');
    await reopened.close();
    await harness.close();
    const tool = requests[0]!.find((message) => message.role === 'tool');
    expect(tool?.parts).toContainEqual({ type: 'image', data: PNG, mediaType: 'image/png' });
  });
});
