import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileSessionStore } from '@weir/session';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-step4-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Runs step4-session as a user would, as its own process, with its sessions in the test's folder. */
async function run(args: string[], openai?: Record<string, string>): Promise<string[]> {
  const env = { ...process.env };
  // Without these the example uses the mock model: the transcript is deterministic.
  delete env.OPENAI_BASE_URL;
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_MODEL;
  Object.assign(env, openai);
  const { stdout } = await promisify(execFile)(tsx, ['--conditions=@weir/source', 'examples/first-agent/step4-session.ts', '--dir', dir, ...args], { cwd: repo, env });
  return stdout.trimEnd().split('\n');
}

const SESSION_LINE = /^\[session\] ([\w-]+) new \(in .+\)$/;

describe('examples/first-agent step4-session', () => {
  it('a second run with --resume <id> continues the first conversation', async () => {
    const first = await run([]);
    const id = SESSION_LINE.exec(first[0]!)?.[1];
    expect(id).toBeDefined();
    expect(first.slice(1)).toEqual([
      '[user] list dir .',
      '[tool:list_dir] -> ok',
      '[assistant] Tool list_dir returned: docs/ ⏎ logo.png ⏎ notes.txt ⏎ todo.md',
      '[user] read file notes.txt',
      '[tool:read_file] -> ok',
      '[assistant] Tool read_file returned:      1\tBuy milk. Call Ada about the weir plugin. Ship the agent loop.',
      `[session] ${id} saved. Continue it with --resume ${id}`,
    ]);

    const second = await run(['--resume', id!, 'read file todo.md']);
    expect(second).toEqual([
      expect.stringMatching(new RegExp(`^\\[session\\] ${id} resumed `)),
      // The earlier conversation, briefly, then the new line.
      '[earlier] 9 messages, shown as 6 lines:',
      '  [user] list dir .',
      '  [tool:list_dir] -> ok',
      '  [assistant] Tool list_dir returned: docs/ ⏎ logo.png ⏎ notes.txt ⏎ todo.md',
      '  [user] read file notes.txt',
      '  [tool:read_file] -> ok',
      '  [assistant] Tool read_file returned:      1\tBuy milk. Call Ada about the weir plugin. Ship the agen…',
      '[user] read file todo.md',
      '[tool:read_file] -> ok',
      expect.stringMatching(/^\[assistant\] Tool read_file returned: {6}1\t# 待办/),
      `[session] ${id} saved. Continue it with --resume ${id}`,
    ]);

    // One conversation in the file: both runs' turns, in order, each ended and none left open.
    const store = createFileSessionStore(dir);
    expect((await store.list()).map((summary) => summary.id)).toEqual([id]);
    const records = await store.read(id!);
    const users = records.flatMap((record) => (record.type === 'message' && record.message.role === 'user' ? [record.message.content] : []));
    expect(users).toEqual(['list dir .', 'read file notes.txt', 'read file todo.md']);
    expect(records.filter((record) => record.type === 'turn_end').map((record) => record.type === 'turn_end' && record.reason)).toEqual(['stop', 'stop', 'stop']);
    expect(records.filter((record) => record.type === 'message' && record.message.role === 'system')).toHaveLength(1);
  }, 60_000);

  it('the resumed run sends the model the whole earlier conversation (through OPENAI_* to a local stand-in)', async () => {
    const first = await run(['read file notes.txt']);
    const id = SESSION_LINE.exec(first[0]!)?.[1];
    const requests: { messages: { role: string; content?: string | null }[] }[] = [];
    const server = createServer(async (request, response) => {
      requests.push(JSON.parse(await readAll(request)) as (typeof requests)[number]);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          model: 'stand-in',
          choices: [{ index: 0, message: { role: 'assistant', content: 'You asked about your notes before.' }, finish_reason: 'stop' }],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const second = await run(['--resume', id!, 'What did I ask before?'], {
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_API_KEY: 'test-key',
        OPENAI_MODEL: 'stand-in',
      });
      expect(second.slice(-3, -1)).toEqual(['[user] What did I ask before?', '[assistant] You asked about your notes before.']);
      expect(requests).toHaveLength(1);
      const sent = requests[0]!.messages.map((message) => message.role);
      expect(sent).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
      expect(requests[0]!.messages[1]).toMatchObject({ role: 'user', content: 'read file notes.txt' });
      expect(requests[0]!.messages[3]!.content).toContain('Buy milk.');
    } finally {
      server.close();
    }
  }, 60_000);

  it('--resume of a session that does not exist says so and exits with 1', async () => {
    const failure = await run(['--resume', 'no-such-session']).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/No session no-such-session/);
  }, 60_000);
});

async function readAll(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}
