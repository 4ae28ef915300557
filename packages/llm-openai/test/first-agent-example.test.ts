import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMockModel } from '@weir/llm-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOOPBACK_API_KEY, startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { behindTheWire } from './mock-behind-the-wire.js';

// Issue 5, item 7: the first-agent example, unchanged, talks to the loopback server through the three
// environment variables. The server answers each request with the mock model's own answer, sent
// through the whole Chat Completions wire format (in seeded slices), so the transcript must be the
// one the example prints with the mock model in-process.
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const LINES = ['list dir .', 'read file notes.txt', 'read file missing.txt', 'read file ../package.json', '读文件 todo.md', '谢谢！'];

async function step2(openai: Record<string, string> | undefined): Promise<string[]> {
  const env = { ...process.env };
  delete env['OPENAI_BASE_URL'];
  delete env['OPENAI_API_KEY'];
  delete env['OPENAI_MODEL'];
  Object.assign(env, openai);
  const { stdout } = await promisify(execFile)(tsx, ['--conditions=@weir/source', 'examples/first-agent/step2-tools.ts', ...LINES], { cwd: repo, env });
  return stdout.trimEnd().split('\n');
}

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
});
afterEach(async () => {
  await server.close();
});

describe('examples/first-agent step2-tools against the loopback endpoint', () => {
  it('prints the same transcript as with the mock model', async () => {
    const withMock = await step2(undefined);
    // Five lines call a tool (two model calls each), the last is plain text (one call).
    const mock = createMockModel();
    for (let call = 0; call < 11; call++) server.script(behindTheWire(mock, { slices: { seed: 100 + call } }));

    const withEndpoint = await step2(server.env('loopback-model'));

    expect(withEndpoint).toEqual(withMock);
    expect(withMock.filter((line) => line.startsWith('[tool:'))).toHaveLength(5);
    expect(server.unexpected).toEqual([]);
    expect(server.pending).toBe(0);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe(`Bearer ${LOOPBACK_API_KEY}`);
      expect(request.json).toMatchObject({ model: 'loopback-model', stream: true });
    }
    const tools = (server.requests[0]!.json as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(tools).toEqual(expect.arrayContaining(['read_file', 'list_dir']));
  }, 60_000);
});
