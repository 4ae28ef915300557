import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, DEFAULT_COMPACT_PROMPT, SUMMARY_PREFIX, type AgentEvent, type Message } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { createFileSessionStore } from '@weir/session';
import { harnessWith, readFileTool } from './support.js';

const files = { 'a.txt': 'alpha '.repeat(50), 'b.txt': 'beta '.repeat(50), 'c.txt': 'gamma '.repeat(50) };
const read = (path: string, usage?: { inputTokens: number; outputTokens: number }) => ({ toolCalls: [{ name: 'read_file', arguments: { path } }], ...(usage === undefined ? {} : { usage }) });

/** Every tool message follows the assistant message that called it, and every call is answered. */
function assertPaired(messages: readonly Message[]): void {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      expect(open.size).toBe(0);
      for (const call of message.toolCalls ?? []) open.add(call.id);
    } else if (message.role === 'tool') {
      expect(open.delete(message.toolCallId)).toBe(true);
    } else {
      expect(open.size).toBe(0);
    }
  }
}

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('context compaction', () => {
  it('replaces older steps by a summary near the limit, keeping the system message, the last steps and every pair', async () => {
    const summarizer = createScriptedModel([{ text: 'The user wants the three files read; a.txt and b.txt were read.', usage: { inputTokens: 50, outputTokens: 20 } }], { id: 'mock:summarizer' });
    // Reported usage drives the count: 900 after step 2, so step 3 starts compacted (limit 800).
    const model = createScriptedModel([read('a.txt', { inputTokens: 400, outputTokens: 10 }), read('b.txt', { inputTokens: 880, outputTokens: 10 }), read('c.txt'), { text: 'done' }]);
    const events: AgentEvent[] = [];
    const agent = createAgent({ model, harness: harnessWith(readFileTool(files)), system: 'Be brief.', compact: { maxTokens: 800, keepSteps: 1, model: summarizer } });

    const result = await agent.turn('read a, b and c', { onEvent: (event) => events.push(event) });

    expect(result.stopReason).toBe('stop');
    const third = model.requests[2]!.messages;
    expect(third[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(third[1]).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}The user wants the three files read; a.txt and b.txt were read.` });
    // The last step (b.txt's call and its result) is kept word for word.
    expect(third.slice(2).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(third[3]).toMatchObject({ role: 'tool', content: files['b.txt'] });
    assertPaired(third);
    assertPaired(agent.messages);
    // The summary call: the caller's (default) prompt, the older steps as text, no tools.
    expect(summarizer.requests[0]!.messages[0]).toEqual({ role: 'system', content: DEFAULT_COMPACT_PROMPT });
    expect(summarizer.requests[0]!.messages[1]!.content).toContain('[called read_file {"path":"a.txt"}]');
    expect(summarizer.requests[0]!.tools).toEqual([]);
    expect(events.filter((event) => event.type === 'compaction')).toEqual([{ type: 'compaction', step: 3, replaced: 3, summary: third[1]!.content }]);
    model.assertAllUsed();
    summarizer.assertAllUsed();
  });

  it('does nothing under the limit', async () => {
    const model = createScriptedModel([read('a.txt'), { text: 'done' }]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool(files)), compact: { maxTokens: 100_000 } });
    await agent.turn('go');
    expect(agent.messages).toHaveLength(4);
  });

  it('takes the caller\'s prompt and token counter; the agent\'s model writes the summary by default', async () => {
    const model = createScriptedModel([read('a.txt'), read('b.txt'), { text: 'short summary' }, { text: 'done' }]);
    const agent = createAgent({
      model,
      harness: harnessWith(readFileTool(files)),
      compact: { maxTokens: 3, keepSteps: 1, prompt: 'Summarise in one line.', countTokens: (messages) => messages.length },
    });
    await agent.turn('go');
    expect(model.requests[2]!.messages[0]).toEqual({ role: 'system', content: 'Summarise in one line.' });
    expect(agent.messages[0]).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}short summary` });
  });

  it('a resumed session sees the same compacted history', async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-compact-'));
    const store = createFileSessionStore(dir);
    const session = await store.create();
    // Two compactions: before step 3 (summary 'they read a') and before step 4 ('they read a and b').
    const model = createScriptedModel([read('a.txt'), read('b.txt'), { text: 'they read a' }, read('c.txt'), { text: 'they read a and b' }, { text: 'done' }]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool(files)), system: 'S', session, compact: { maxTokens: 6, keepSteps: 1, countTokens: (messages) => messages.length } });
    await agent.turn('go');
    const live = [...agent.messages];
    await session.close();

    const reopened = await store.open(session.id);
    expect(reopened.records().filter((record) => record.type === 'compaction')).toHaveLength(2);
    expect(live[1]).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}they read a and b` });
    model.assertAllUsed();
    expect(reopened.history().messages).toEqual(live);
    const resumed = createAgent({ model: createScriptedModel([]), harness: harnessWith(), session: reopened });
    expect(resumed.messages).toEqual(live);
    assertPaired(resumed.messages);
    await reopened.close();
  });

  it('a summary call that fails is logged and the step goes on with the whole history', async () => {
    const summarizer = createScriptedModel([() => { throw new Error('summary service down'); }]);
    const model = createScriptedModel([read('a.txt'), read('b.txt'), { text: 'done' }]);
    const agent = createAgent({ model, harness: harnessWith(readFileTool(files)), compact: { maxTokens: 3, keepSteps: 1, model: summarizer, countTokens: (m) => m.length } });
    expect((await agent.turn('go')).stopReason).toBe('stop');
    expect(agent.messages[0]).toEqual({ role: 'user', content: 'go' });
  });

  it('rejects malformed options at createAgent', () => {
    const model = createScriptedModel([]);
    expect(() => createAgent({ model, harness: harnessWith(), compact: { maxTokens: 0 } })).toThrow(TypeError);
    expect(() => createAgent({ model, harness: harnessWith(), compact: { maxTokens: 10, keepSteps: -1 } })).toThrow(TypeError);
  });
});
