import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent, createHarness, defineTool, type ContentPart, type LanguageModel, type Logger, type Message, type ModelRequest } from '@weir/core';
import { createFileSessionStore, createMemorySessionStore, type SessionStore } from '../src/index.js';
import { nodeSessionFileSystem, type SessionFileSystem } from '../src/session-file-system.js';

// A 1x1 PNG (70 bytes) and a 1x1 GIF: two different images.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const sha = (base64: string) => createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex');

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'weir-images-'));
  dirs.push(dir);
  return dir;
};

/** A tool whose result is a text line and an image. */
const screenshot = (data: string) =>
  defineTool({
    name: 'screenshot',
    description: 'Takes a screenshot.',
    tier: 'read-only',
    parameters: { type: 'object', properties: {} },
    output: { render: (): readonly ContentPart[] => [{ type: 'text', text: 'The screen:' }, { type: 'image', data, mediaType: 'image/png' }] },
    execute: () => 'shot',
  });

const withScreenshot = (data: string) => {
  const harness = createHarness();
  harness.tools.register(screenshot(data));
  return harness;
};

/** Calls `screenshot` once per turn, then answers; records every request it gets. */
function scriptedModel(requests: Message[][]): LanguageModel {
  let step = 0;
  return {
    id: 'scripted',
    async complete(request: ModelRequest) {
      requests.push([...request.messages]);
      step += 1;
      if (step % 2 === 1) return { text: '', toolCalls: [{ id: `call_${step}`, name: 'screenshot', arguments: {} }], finishReason: 'tool_calls' };
      return { text: 'I saw it.', toolCalls: [], finishReason: 'stop' };
    },
  };
}

const userWithImage: readonly ContentPart[] = [
  { type: 'text', text: 'What is in this picture?' },
  { type: 'image', data: GIF, mediaType: 'image/gif' },
];

const stores: [string, () => Promise<{ store: SessionStore; restart: () => SessionStore }>][] = [
  ['memory', async () => { const store = createMemorySessionStore(); return { store, restart: () => store }; }],
  ['file', async () => { const dir = await tempDir(); return { store: createFileSessionStore(dir), restart: () => createFileSessionStore(dir) }; }],
];

describe.each(stores)('a session with images, %s store', (_name, make) => {
  it('resumes with the user message image and the tool result image, as the live history had them', async () => {
    const { store, restart } = await make();
    const session = await store.create({ id: 'pics' });
    const agent = createAgent({ model: scriptedModel([]), harness: withScreenshot(PNG), session });
    await agent.turn(userWithImage);
    const live = agent.messages;
    await session.close();

    const reopened = await restart().open('pics');
    const history = reopened.history().messages;
    expect(history).toEqual(live);
    const tool = history.find((message) => message.role === 'tool');
    expect(tool).toMatchObject({ content: 'The screen:', parts: [{ type: 'text', text: 'The screen:' }, { type: 'image', data: PNG, mediaType: 'image/png' }] });
    expect(history.find((message) => message.role === 'user')).toMatchObject({ parts: userWithImage });

    // The next turn's request carries both images again.
    const requests: Message[][] = [];
    const resumed = createAgent({ model: scriptedModel(requests), harness: withScreenshot(PNG), session: reopened });
    await resumed.turn('And now?');
    expect(requests[0]!.filter((message) => message.role === 'user')[0]).toMatchObject({ parts: userWithImage });
    expect(requests[0]!.find((message) => message.role === 'tool')).toMatchObject({ parts: [{ type: 'text', text: 'The screen:' }, { type: 'image', data: PNG, mediaType: 'image/png' }] });
    await reopened.close();
    expect((await restart().read('pics')).filter((record) => record.type === 'tool_result')).toHaveLength(2);
  });
});

/** A real file system that counts the blobs it links into place. */
function countingFs(): { fs: SessionFileSystem; blobLinks: string[] } {
  const blobLinks: string[] = [];
  return {
    blobLinks,
    fs: {
      ...nodeSessionFileSystem,
      link: async (from, to) => {
        if (to.includes(`${join('blobs', '')}`)) blobLinks.push(to);
        return nodeSessionFileSystem.link(from, to);
      },
    },
  };
}

function capturingLogger(): { logger: Logger; warnings: { fields: Record<string, unknown>; message: string }[] } {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const ignore = () => undefined;
  const logger = {
    debug: ignore,
    info: ignore,
    warn: (fields: Record<string, unknown>, message: string) => void warnings.push({ fields, message }),
    error: ignore,
  } as unknown as Logger;
  return { logger, warnings };
}

describe('the file store keeps images apart', () => {
  it('writes each image once, as blobs/<sha256>, and the lines name it without its bytes', async () => {
    const dir = await tempDir();
    const { fs, blobLinks } = countingFs();
    const store = createFileSessionStore(dir, { fs });
    const session = await store.create({ id: 'twice' });
    // The same image twice in one result, then again in a user message and in a second session.
    await session.append({
      type: 'tool_result',
      callId: 'c1',
      toolName: 'screenshot',
      ok: true,
      content: 'two shots',
      parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }, { type: 'image', data: PNG, mediaType: 'image/png' }],
    });
    await session.append({ type: 'message', message: { role: 'user', content: 'again', parts: [{ type: 'text', text: 'again' }, { type: 'image', data: PNG, mediaType: 'image/png' }] } });
    await session.close();
    const other = await store.create({ id: 'other' });
    await other.append({ type: 'tool_result', callId: 'c1', toolName: 'screenshot', ok: true, content: '', parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }] });
    await other.close();

    expect(blobLinks).toEqual([join(dir, 'blobs', sha(PNG))]);
    expect(await readdir(join(dir, 'blobs'))).toEqual([sha(PNG)]);
    expect((await readFile(join(dir, 'blobs', sha(PNG)))).toString('base64')).toBe(PNG);
    const log = await readFile(join(dir, 'twice.jsonl'), 'utf8');
    expect(log).not.toContain(PNG.slice(0, 40));
    expect(log).toContain(`"blob":"sha256:${sha(PNG)}"`);

    const records = await createFileSessionStore(dir).read('twice');
    expect(records[1]).toMatchObject({ parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }, { type: 'image', data: PNG, mediaType: 'image/png' }] });
    expect(records[2]).toMatchObject({ message: { parts: [{ type: 'text', text: 'again' }, { type: 'image', data: PNG, mediaType: 'image/png' }] } });
    expect(Object.isFrozen((records[1] as unknown as { parts: object[] }).parts[0])).toBe(true);
  });

  it('syncs the blob before the record that names it is written', async () => {
    const dir = await tempDir();
    const steps: string[] = [];
    const fs: SessionFileSystem = {
      ...nodeSessionFileSystem,
      async open(path, flags, mode) {
        const file = await nodeSessionFileSystem.open(path, flags, mode);
        const name = path.includes(`${join('blobs', '')}`) ? 'blob' : path.endsWith('.jsonl') ? 'log' : 'other';
        return {
          ...file,
          write: async (data) => (steps.push(`write ${name}`), file.write(data)),
          datasync: async () => (steps.push(`datasync ${name}`), file.datasync()),
        };
      },
      link: async (from, to) => (steps.push(to.includes(`${join('blobs', '')}`) ? 'link blob' : 'link'), nodeSessionFileSystem.link(from, to)),
      syncDirectory: async (path) => (steps.push(path === join(dir, 'blobs') ? 'fsync blobs/' : 'fsync dir'), nodeSessionFileSystem.syncDirectory(path)),
    };
    const session = await createFileSessionStore(dir, { fs }).create({ id: 'order' });
    steps.length = 0;
    await session.append({ type: 'tool_result', callId: 'c1', toolName: 'screenshot', ok: true, content: '', parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }] });
    await session.close();
    const lineAt = steps.indexOf('write log');
    expect(steps.slice(0, lineAt)).toEqual(['fsync dir', 'write blob', 'datasync blob', 'link blob', 'fsync blobs/']);
  });

  it('a missing or damaged blob is a note in place of the image and a warning; the session still opens', async () => {
    const dir = await tempDir();
    const store = createFileSessionStore(dir);
    const session = await store.create({ id: 'lost' });
    await session.append({ type: 'message', message: { role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, { type: 'image', data: GIF, mediaType: 'image/gif' }] } });
    await session.append({ type: 'tool_result', callId: 'c1', toolName: 'screenshot', ok: true, content: 'shot', parts: [{ type: 'text', text: 'shot' }, { type: 'image', data: PNG, mediaType: 'image/png' }] });
    await session.close();
    await unlink(join(dir, 'blobs', sha(PNG)));
    await writeFile(join(dir, 'blobs', sha(GIF)), 'not the gif');

    const { logger, warnings } = capturingLogger();
    const reopened = await createFileSessionStore(dir, { logger }).open('lost');
    const records = reopened.records();
    expect(records[1]).toMatchObject({
      message: { parts: [{ type: 'text', text: 'look' }, { type: 'text', text: `[image: image/gif, not available: its stored copy blobs/${sha(GIF)} is damaged]` }] },
    });
    expect(records[2]).toMatchObject({
      parts: [{ type: 'text', text: 'shot' }, { type: 'text', text: `[image: image/png, not available: its stored copy blobs/${sha(PNG)} is missing]` }],
    });
    expect(warnings.map((warning) => warning.fields)).toEqual([
      expect.objectContaining({ sessionId: 'lost', seq: 2, blob: sha(GIF) }),
      expect.objectContaining({ sessionId: 'lost', seq: 3, blob: sha(PNG) }),
    ]);
    // It goes on: a new image is stored and read back.
    await reopened.append({ type: 'tool_result', callId: 'c2', toolName: 'screenshot', ok: true, content: '', parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }] });
    await reopened.close();
    expect((await store.read('lost'))[3]).toMatchObject({ parts: [{ type: 'image', data: PNG }] });
  });

  it('a fork keeps the images, by reference', async () => {
    const dir = await tempDir();
    const store = createFileSessionStore(dir);
    const session = await store.create({ id: 'source' });
    await session.append({ type: 'tool_result', callId: 'c1', toolName: 'screenshot', ok: true, content: '', parts: [{ type: 'image', data: PNG, mediaType: 'image/png' }] });
    await session.close();
    const fork = await store.fork('source', { id: 'copy' });
    expect(fork.records()[1]).toMatchObject({ parts: [{ type: 'image', data: PNG }] });
    await fork.close();
    expect(await readFile(join(dir, 'copy.jsonl'), 'utf8')).not.toContain(PNG.slice(0, 40));
    expect((await store.read('copy'))[1]).toMatchObject({ parts: [{ type: 'image', data: PNG }] });
  });

  it('refuses a stored image reference that is malformed, as damage', async () => {
    const dir = await tempDir();
    const session = await createFileSessionStore(dir).create({ id: 'bad-ref' });
    await session.close();
    await writeFile(
      join(dir, 'bad-ref.jsonl'),
      `${await readFile(join(dir, 'bad-ref.jsonl'), 'utf8')}{"v":1,"seq":2,"type":"tool_result","at":"x","callId":"c","toolName":"t","ok":true,"content":"","parts":[{"type":"image","mediaType":"image/png","blob":"sha256:nope"}]}\n{"v":1,"seq":3,"type":"turn_end","at":"x"}\n`,
    );
    await expect(createFileSessionStore(dir).read('bad-ref')).rejects.toMatchObject({ code: 'SESSION_CORRUPT', message: expect.stringContaining('"blob" must be sha256:<64 hex digits>') });
  });
});

describe('a session written before tool results had parts', () => {
  it('opens as it was, its inline user image included, and goes on with images', async () => {
    const dir = await tempDir();
    await copyFile(fileURLToPath(new URL('./fixtures/sessions/before-parts.jsonl', import.meta.url)), join(dir, 'before-parts.jsonl'));
    const store = createFileSessionStore(dir);
    const session = await store.open('before-parts');
    expect(session.recovery).toBeUndefined();
    const { messages } = session.history();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[0]).toMatchObject({ parts: [{ type: 'text' }, { type: 'image', data: PNG, mediaType: 'image/png' }] });
    expect(messages[2]).toEqual({ role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: '1\tbuy milk', isError: false });
    await session.append({ type: 'tool_result', callId: 'c9', toolName: 'screenshot', ok: true, content: '', parts: [{ type: 'image', data: GIF, mediaType: 'image/gif' }] });
    await session.close();
    const records = await store.read('before-parts');
    expect(records).toHaveLength(8);
    expect(records[7]).toMatchObject({ parts: [{ type: 'image', data: GIF }] });
  });
});
