import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest, ModelStreamEvent, ToolSchema } from '@weir/core';
import { createMockModel } from './create-mock-model.js';

const schema = (name: string): ToolSchema => ({ name, description: name, parameters: { type: 'object', properties: { path: { type: 'string' } } } });
const FS_TOOLS = [schema('read_file'), schema('list_dir')];

const ask = (text: string, tools = FS_TOOLS): ModelRequest => ({ messages: [{ role: 'user', content: text }], tools });

/** The history after the model called `tool` and got `content` back. */
function afterResult(userText: string, tool: string, content: string, isError = false): ModelRequest {
  const messages: Message[] = [
    { role: 'user', content: userText },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: tool, arguments: '{}' }] },
    { role: 'tool', toolCallId: 'c1', toolName: tool, content, isError },
  ];
  return { messages, tools: FS_TOOLS };
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const seen: ModelStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('createMockModel', () => {
  it.each([
    ['read file notes.txt', 'read_file', 'notes.txt'],
    ['Read File docs/a b.md', 'read_file', 'docs/a b.md'],
    ['读文件 notes.txt', 'read_file', 'notes.txt'],
    ['读文件：笔记.txt', 'read_file', '笔记.txt'],
    ['list dir src', 'list_dir', 'src'],
    ['list dir', 'list_dir', '.'],
    ['列目录 src', 'list_dir', 'src'],
    ['列目录', 'list_dir', '.'],
    ['read file "with space.txt"', 'read_file', 'with space.txt'],
  ])('%s calls %s with path %s', async (text, tool, path) => {
    const response = await createMockModel().complete(ask(text));
    expect(response.finishReason).toBe('tool_calls');
    expect(response.text).toBe('');
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]).toMatchObject({ name: tool });
    expect(JSON.parse(response.toolCalls[0]!.arguments as string)).toEqual({ path });
  });

  it.each([
    ['run tool index_workspace', 'index_workspace'],
    ['Run Tool slow-one', 'slow-one'],
    ['运行工具 index_workspace', 'index_workspace'],
  ])('%s calls %s with no arguments', async (text, tool) => {
    const response = await createMockModel().complete(ask(text, [schema(tool)]));
    expect(response).toMatchObject({ finishReason: 'tool_calls', toolCalls: [{ name: tool }] });
    expect(JSON.parse(response.toolCalls[0]!.arguments as string)).toEqual({});
    expect((await createMockModel().complete(ask(text, FS_TOOLS))).text).toContain(`${tool} `);
  });

  it('does not call a tool that is not in the request, and says so in the user language', async () => {
    const english = await createMockModel().complete(ask('read file notes.txt', [schema('list_dir')]));
    expect(english).toMatchObject({ toolCalls: [], finishReason: 'stop' });
    expect(english.text).toContain('read_file is not available');
    const chinese = await createMockModel().complete(ask('列目录 src', []));
    expect(chinese.toolCalls).toEqual([]);
    expect(chinese.text).toContain('工具 list_dir 在这里不可用');
  });

  it('answers a tool result with its start: whole words up to 120 characters, then "…"', async () => {
    const short = 'Buy milk. Call Ada about the weir plugin. Ship the agent loop.';
    expect((await createMockModel().complete(afterResult('read file a.txt', 'read_file', `${short}\n`))).text).toBe(`Tool read_file returned: ${short}`);
    const words = 'word '.repeat(40).trim();
    const response = await createMockModel().complete(afterResult('read file long.txt', 'read_file', words));
    expect(response).toMatchObject({ toolCalls: [], finishReason: 'stop' });
    // 24 whole words fit in 120 characters (5 each, the last without its space); none is cut.
    expect(response.text).toBe(`Tool read_file returned: ${'word '.repeat(24).trim()}…`);
  });

  it('cuts a run without spaces at 120 characters, marked "…"', async () => {
    const content = 'abcdefghij'.repeat(20);
    const response = await createMockModel().complete(afterResult('read file long.txt', 'read_file', content));
    expect(response.text).toBe(`Tool read_file returned: ${content.slice(0, 120)}…`);
  });

  it('quotes an error result, error text included', async () => {
    const content = 'Error [NOT_FOUND]: missing.txt does not exist.';
    const response = await createMockModel().complete(afterResult('read file missing.txt', 'read_file', content, true));
    expect(response.text).toBe(`Tool read_file returned: ${content}`);
  });

  it('answers in Chinese after a Chinese request', async () => {
    const response = await createMockModel().complete(afterResult('读文件 a.txt', 'read_file', '你好，世界'));
    expect(response.text).toBe('工具 read_file 返回了：你好，世界');
  });

  it('counts characters, not UTF-16 units, when it quotes', async () => {
    const content = '😀'.repeat(130);
    const response = await createMockModel().complete(afterResult('read file e.txt', 'read_file', content));
    expect(response.text).toBe(`Tool read_file returned: ${'😀'.repeat(120)}…`);
  });

  it('quotes the user when no rule applies', async () => {
    const english = await createMockModel().complete(ask('How are you?'));
    expect(english).toMatchObject({ toolCalls: [], finishReason: 'stop' });
    expect(english.text).toContain('"How are you?"');
    const chinese = await createMockModel().complete(ask('你好'));
    expect(chinese.text).toContain('你说：“你好”');
  });

  it('is deterministic: the same request gets the same answer', async () => {
    const request = ask('read file a.txt');
    expect(await createMockModel().complete(request)).toEqual(await createMockModel().complete(request));
  });

  it('streams the same answer: text in several deltas, then finish', async () => {
    const request = ask('Tell me something');
    const events = await collect(createMockModel().stream!(request));
    const deltas = events.filter((event) => event.type === 'text-delta');
    const finish = events.at(-1);
    expect(deltas.length).toBeGreaterThan(1);
    expect(finish?.type).toBe('finish');
    if (finish?.type !== 'finish') return;
    expect(deltas.map((delta) => delta.text).join('')).toBe(finish.response.text);
    expect(finish.response).toEqual(await createMockModel().complete(request));
  });

  it('streams tool calls as deltas before finish', async () => {
    const events = await collect(createMockModel().stream!(ask('list dir src')));
    expect(events.map((event) => event.type)).toEqual(['tool-call-delta', 'finish']);
    expect(events[0]).toMatchObject({ name: 'list_dir', argumentsDelta: '{"path":"src"}' });
  });

  it('rejects with the signal reason once aborted, for complete and stream', async () => {
    const controller = new AbortController();
    const reason = new Error('stop now');
    controller.abort(reason);
    const request = { ...ask('hello'), signal: controller.signal };
    await expect(createMockModel().complete(request)).rejects.toBe(reason);
    await expect(collect(createMockModel().stream!(request))).rejects.toBe(reason);
  });
});

describe('createMockModel and images', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  it('says what images a tool result brought', async () => {
    const request = afterResult('read file logo.png', 'read_file', '');
    const tool = request.messages[2] as Extract<Message, { role: 'tool' }>;
    const messages = [...request.messages.slice(0, 2), { ...tool, parts: [{ type: 'image' as const, data: PNG, mediaType: 'image/png' }] }];
    const response = await createMockModel().complete({ ...request, messages });
    expect(response.text).toBe('Tool read_file returned: \nI see 1 image (image/png, 70 bytes).');
  });

  it('says what images a user message holds, in the user language', async () => {
    const parts = [{ type: 'text' as const, text: '这是什么？' }, { type: 'image' as const, data: PNG, mediaType: 'image/png' }, { type: 'image' as const, url: 'https://example.com/a.jpg', mediaType: 'image/jpeg' }];
    const response = await createMockModel().complete({ messages: [{ role: 'user', content: '这是什么？', parts }], tools: FS_TOOLS });
    expect(response.text).toBe('我看到 2 张图片（image/png, 70 bytes；image/jpeg at https://example.com/a.jpg）。');
  });
});
