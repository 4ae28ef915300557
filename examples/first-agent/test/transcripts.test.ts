import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

/** Runs an example as a user would (`tsx --conditions=@weir/source`), with the mock model unless `openai` is given. */
async function run(script: string, args: string[] = [], openai?: Record<string, string>): Promise<string[]> {
  const env = { ...process.env };
  // Without these the examples use the mock model: the transcript is deterministic.
  delete env.OPENAI_BASE_URL;
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_MODEL;
  Object.assign(env, openai);
  const { stdout } = await promisify(execFile)(tsx, ['--conditions=@weir/source', `examples/first-agent/${script}`, ...args], { cwd: repo, env });
  return stdout.trimEnd().split('\n');
}

describe('examples/first-agent', () => {
  it('step1-loop: the thinking loop answers each line, and calls no tool it does not have', async () => {
    const lines = await run('step1-loop.ts');
    expect(lines).toEqual([
      '[user] Hello! Who are you?',
      expect.stringMatching(/^\[assistant\] You said: "Hello! Who are you\?"/),
      '[user] 你好，今天天气怎么样？',
      expect.stringMatching(/^\[assistant\] 你说：“你好，今天天气怎么样？”/),
      '[user] read file notes.txt',
      '[assistant] The tool read_file is not available here, so I cannot do that.',
    ]);
  }, 60_000);

  it('step2-tools: tools run, an error is printed and the model quotes it, and the loop goes on', async () => {
    const lines = await run('step2-tools.ts');
    expect(lines).toEqual([
      '[user] list dir .',
      '[tool:list_dir] -> ok',
      '[assistant] Tool list_dir returned: docs/ ⏎ logo.png ⏎ notes.txt ⏎ todo.md',
      '[user] read file notes.txt',
      '[tool:read_file] -> ok',
      // read_file numbers its lines (cat -n); the model quotes the start of what it read.
      '[assistant] Tool read_file returned:      1\tBuy milk. Call Ada about the weir plugin. Ship the agent loop.',
      '[user] read file missing.txt',
      expect.stringMatching(/^\[tool:read_file\] -> NOT_FOUND "?missing\.txt"? does not exist/),
      expect.stringMatching(/^\[assistant\] Tool read_file returned: Error \[NOT_FOUND\]: "?missing\.txt"? does not exist/),
      '[user] read file ../package.json',
      expect.stringMatching(/^\[tool:read_file\] -> PATH_OUTSIDE_WORKSPACE .*outside the workspace/),
      expect.stringMatching(/^\[assistant\] Tool read_file returned: Error \[PATH_OUTSIDE_WORKSPACE\]/),
      '[user] 读文件 todo.md',
      '[tool:read_file] -> ok',
      expect.stringMatching(/^\[assistant\] 工具 read_file 返回了： {5}1\t# 待办/),
      '[user] 谢谢！',
      expect.stringMatching(/^\[assistant\] 你说：“谢谢！”/),
    ]);
  }, 60_000);

  it('step2-tools takes the lines from its arguments', async () => {
    const lines = await run('step2-tools.ts', ['列目录 docs', 'read file docs']);
    expect(lines).toEqual([
      '[user] 列目录 docs',
      '[tool:list_dir] -> ok',
      expect.stringMatching(/^\[assistant\] 工具 list_dir 返回了：(docs\/)?readme\.txt$/),
      '[user] read file docs',
      expect.stringMatching(/^\[tool:read_file\] -> IS_A_DIRECTORY "?docs"? is a directory/),
      expect.stringMatching(/^\[assistant\] Tool read_file returned: Error \[IS_A_DIRECTORY\]: "?docs"? is a directory/),
    ]);
  }, 60_000);

  it('step2-tools talks to an OpenAI-compatible endpoint when OPENAI_* is set, with no other change', async () => {
    // A local stand-in for Chat Completions: it asks for read_file, then answers with what it read.
    const requests: { messages: { role: string; content?: string }[]; tools?: { function: { name: string } }[] }[] = [];
    const server = createServer(async (request, response) => {
      const body = JSON.parse(await readAll(request)) as (typeof requests)[number];
      requests.push(body);
      const last = body.messages.at(-1)!;
      const message =
        last.role === 'tool'
          ? { role: 'assistant', content: `The notes begin: ${String(last.content).replace(/^\s*\d+\t/, '').slice(0, 9)}` }
          : { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'stand-in', choices: [{ index: 0, message, finish_reason: last.role === 'tool' ? 'stop' : 'tool_calls' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const lines = await run('step2-tools.ts', ['What is in my notes?'], {
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_API_KEY: 'test-key',
        OPENAI_MODEL: 'stand-in',
      });
      expect(lines).toEqual(['[user] What is in my notes?', '[tool:read_file] -> ok', '[assistant] The notes begin: Buy milk.']);
      expect(requests).toHaveLength(2);
      expect(requests[0]!.tools?.map((tool) => tool.function.name)).toContain('read_file');
    } finally {
      server.close();
    }
  }, 60_000);
});

async function readAll(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}
