// Bytes an editor should never send, written on the agent's standard input as they are: each gets
// a JSON-RPC error answer and the server goes on serving. No SDK client here: it would refuse to
// send such lines.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { fixtureAgent, repo } from './support/acp-client.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

it('answers malformed JSON-RPC with errors and keeps running', async () => {
  dir = mkdtempSync(join(tmpdir(), 'weir-acp-raw-'));
  const tsx = pathToFileURL(join(repo, 'node_modules/tsx/dist/esm/index.mjs')).href;
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=@weir/source', fixtureAgent, 'none'], { cwd: dir, env: { ...process.env, WEIR_ACP_STORE: join(dir, 'sessions') }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as { id: unknown; result?: unknown; error?: { code: number; message: string } };
  const send = (text: string) => child.stdin!.write(`${text}\n`);

  send('this is not JSON');
  expect(await next()).toMatchObject({ id: null, error: { code: -32700 } });
  send('[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}]');
  expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
  send('{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"one"}}');
  expect(await next()).toMatchObject({ id: 3, error: { code: -32602 } });
  // Still serving: a good request after all that is answered.
  send('{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":1}}');
  expect(await next()).toMatchObject({ id: 4, result: { protocolVersion: 1 } });
  send('{"jsonrpc":"2.0","id":2,"method":"no/such_method","params":{}}');
  expect(await next()).toMatchObject({ id: 2, error: { code: -32601 } });
  send(`{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"relative/dir","mcpServers":[]}}`);
  expect(await next()).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringContaining('cwd must be an absolute path') } });
  send(`{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}`);
  expect(await next()).toMatchObject({ id: 6, error: { message: expect.stringMatching(/nope|not found/i) } });
  // A model call that fails is the prompt's error answer, in one line, not a crash.
  send(`{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":${JSON.stringify(dir)},"mcpServers":[]}}`);
  const created = await next();
  const sessionId = (created.result as { sessionId: string }).sessionId;
  send(`{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":"${sessionId}","prompt":[{"type":"text","text":"hi"}]}}`);
  const failed = await next();
  expect(failed).toMatchObject({ id: 8, error: { code: -32603, message: expect.stringMatching(/^Internal error: Model mock:scripted failed at step 1: [^\n]*beyond the script/) } });

  child.stdin!.end();
  expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
});
