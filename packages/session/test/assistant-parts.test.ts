import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, partsSummary, type LanguageModel, type ModelRequest } from '@weir/core';
import { createFileSessionStore } from '../src/index.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const FIXTURE = fileURLToPath(new URL('./fixtures/sessions/before-assistant-parts.jsonl', import.meta.url));

describe('a session written before assistant messages had parts', () => {
  it('opens unchanged: every message exactly as recorded, reasoning a plain string', async () => {
    dir = await mkdtemp(join(tmpdir(), 'weir-old-session-'));
    await copyFile(FIXTURE, join(dir, 'before-assistant-parts.jsonl'));
    const store = createFileSessionStore(dir);
    const session = await store.open('before-assistant-parts');
    expect(session.recovery).toBeUndefined();
    const recorded = (await readFile(FIXTURE, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    const messages = recorded.filter((r) => r.type === 'message').map((r) => r.message);
    expect(session.history().messages).toEqual([
      messages[0],
      messages[1],
      messages[2],
      { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: '1\tbuy milk', isError: false },
      messages[3],
    ]);

    // An agent goes on from it, and what it adds now (parts, signatures) comes back on the next open.
    const parts = [
      { type: 'reasoning', text: 'Short answer.', providerData: { anthropic: { signature: 'sig/+==' } } },
      { type: 'text', text: 'Milk.' },
    ] as const;
    const requests: ModelRequest[] = [];
    const model: LanguageModel = {
      id: 'test:parts',
      complete: async (request) => {
        requests.push({ ...request, messages: [...request.messages] });
        const { text, reasoning } = partsSummary(parts);
        return { text, reasoning, toolCalls: [], parts, finishReason: 'stop' };
      },
    };
    const agent = createAgent({ model, harness: createHarness(), session });
    await agent.turn('Again, shorter?');
    expect(requests[0]!.messages.slice(0, 5)).toEqual(session.history().messages.slice(0, 5));
    await session.close();
    const reopened = await store.open('before-assistant-parts');
    const last = reopened.history().messages.at(-1);
    expect(last).toEqual({ role: 'assistant', content: 'Milk.', reasoning: 'Short answer.', parts });
    await reopened.close();
  });

  it('refuses assistant parts that are not parts, naming the record', async () => {
    dir = await mkdtemp(join(tmpdir(), 'weir-bad-parts-'));
    const store = createFileSessionStore(dir);
    const session = await store.create({ id: 'bad' });
    await expect(session.append({ type: 'message', message: { role: 'assistant', content: '', parts: [{ type: 'thinking', text: '' }] as never } })).rejects.toMatchObject({
      code: 'INVALID_SESSION_RECORD',
      message: expect.stringContaining('unknown type "thinking"'),
    });
    await expect(session.append({ type: 'message', message: { role: 'assistant', content: '', parts: [{ type: 'reasoning', text: '', providerData: { anthropic: 'sig' } }] as never } })).rejects.toMatchObject({
      code: 'INVALID_SESSION_RECORD',
    });
    await session.close();
  });
});
