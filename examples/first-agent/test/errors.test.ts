// What a new user meets when something is wrong: every example prints an ordinary failure as one
// line on standard error and exits non-zero (2 for a usage error, 1 otherwise), with no stack unless
// --debug asks for it. Each example runs as its own process against a loopback stand-in server.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, refusedBaseURL, type ModelServer, type ServerMode } from './support/model-server.js';
import { runExample, type ExampleRun } from './support/run-example.js';

let server: ModelServer;
let scratch: string;
beforeAll(async () => {
  server = await startModelServer();
  scratch = await mkdtemp(join(tmpdir(), 'weir-errors-'));
});
afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

const STACK_LINE = /^\s+at /m;

/** The run failed with `code` and exactly one `[error]` line matching `pattern`, and no stack. */
function expectOneLineFailure(run: ExampleRun, code: number, pattern: RegExp): void {
  const errors = run.stderr.split('\n').filter((line) => line.startsWith('[error] '));
  expect(errors, run.stderr).toHaveLength(1);
  expect(errors[0]).toMatch(pattern);
  expect(errors[0]).not.toMatch(/\.\.(\s|$)/);
  expect(run.stderr + run.stdout).not.toMatch(STACK_LINE);
  // Nothing but status lines beside it on standard error.
  expect(run.stderr.split('\n').filter((line) => line !== '' && !/^\[((error|model|waiting)\] |retrying in )/.test(line))).toEqual([]);
  expect(run.code).toBe(code);
}

const endpoint = (mode: ServerMode, extra: Record<string, string> = {}) => ({
  OPENAI_BASE_URL: server.baseURL(mode),
  OPENAI_API_KEY: 'sk-test',
  OPENAI_MODEL: 'stand-in',
  OPENAI_MAX_RETRIES: '1',
  ...extra,
});

describe.concurrent('examples/first-agent: failures read as one line', { timeout: 120_000 }, () => {
  it('a 401 (step1): the provider message and the key to check', async () => {
    const run = await runExample('step1-loop.ts', ['hi'], endpoint('401'));
    expectOneLineFailure(run, 1, /Authentication failed.*HTTP 401.*Incorrect API key provided\..*OPENAI_API_KEY/);
    expect(run.stderr).not.toContain('sk-test');
  });

  it('a 404 (step2): the model or the endpoint was not found', async () => {
    const run = await runExample('step2-tools.ts', ['hi'], endpoint('404'));
    expectOneLineFailure(run, 1, /Not found: model "stand-in" or the endpoint.*HTTP 404/);
  });

  it('a 500 (step3): each retry is shown as it happens, then one line', async () => {
    const run = await runExample('step3-safety.ts', ['hi'], endpoint('500'));
    expectOneLineFailure(run, 1, /unavailable.*\(HTTP 500 from POST .*The server had an error/);
    expect(run.stderr).toMatch(/^\[retrying in [\d.]+ s: provider unavailable\]$/m);
    // The status is named once.
    expect(run.stderr.split('\n').find((line) => line.startsWith('[error]'))!.split('HTTP 500').length - 1).toBe(1);
  });

  it('a body that is not a Chat Completions answer (step4)', async () => {
    const run = await runExample('step4-session.ts', ['--dir', join(scratch, 'garbage-sessions'), 'hi'], endpoint('garbage'));
    expectOneLineFailure(run, 1, /not a Chat Completions answer.*OPENAI_BASE_URL/);
  });

  it('a refused connection (step2): is the server running?', async () => {
    const run = await runExample('step2-tools.ts', ['hi'], { ...endpoint('ok'), OPENAI_BASE_URL: await refusedBaseURL(), OPENAI_MAX_RETRIES: '0' });
    expectOneLineFailure(run, 1, /connection to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions failed.*ECONNREFUSED/);
  });

  it('a stalled server (step1): the wait is shown while it lasts, and each retry', async () => {
    const run = await runExample('step1-loop.ts', ['hi'], endpoint('stall', { OPENAI_IDLE_TIMEOUT_MS: '1200' }));
    expectOneLineFailure(run, 1, /IDLE|idle|silen/i);
    expect(run.stderr).toMatch(/^\[waiting\] [\d.]+ s without a word from the model/m);
    expect(run.stderr).toMatch(/^\[retrying in [\d.]+ s: idle timeout\]$/m);
  });

  it('an incomplete OPENAI_* set is an error naming what is missing, never a silent fallback to the mock', async () => {
    const run = await runExample('step2-tools.ts', ['hi'], { OPENAI_MODEL: 'stand-in' });
    expectOneLineFailure(run, 1, /Missing environment variable: OPENAI_BASE_URL/);
    expect(run.stdout).not.toContain('[assistant]');
  });

  it('an unknown flag is a usage error (status 2) naming it', async () => {
    for (const script of ['step1-loop.ts', 'step3-safety.ts']) {
      const run = await runExample(script, ['--verbose']);
      expectOneLineFailure(run, 2, /Unknown option '--verbose'.*\(usage: step\d-\w+\.ts /);
    }
  });

  it('a flag missing its value is a usage error (status 2)', async () => {
    expectOneLineFailure(await runExample('step4-session.ts', ['--resume']), 2, /'--resume <value>' argument missing/);
    expectOneLineFailure(await runExample('step2-tools.ts', ['--workspace']), 2, /'--workspace <value>' argument missing/);
  });

  it('an unusable --dir (a file) is one line, status 1', async () => {
    const file = join(scratch, 'not-a-folder');
    await writeFile(file, 'x');
    const run = await runExample('step4-session.ts', ['--dir', file]);
    expectOneLineFailure(run, 1, /not-a-folder|ENOTDIR|EEXIST/);
  });

  it('a missing workspace says it does not exist, once', async () => {
    const run = await runExample('step2-tools.ts', ['--workspace', join(scratch, 'no-such-folder')]);
    expectOneLineFailure(run, 1, /^\[error\] Plugin "tools-fs" failed to set up: fsTools: the workspace root ".*no-such-folder" does not exist\. Nothing it registered was kept\.$/);
  });

  it('--debug adds the stack, and the status stays', async () => {
    const run = await runExample('step2-tools.ts', ['--debug', '--workspace', join(scratch, 'no-such-folder')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^\[error\] /m);
    expect(run.stderr).toMatch(STACK_LINE);
  });
});

describe.concurrent('examples/first-agent: the model in use', { timeout: 120_000 }, () => {
  it('every example says which model it uses: the mock without OPENAI_*', async () => {
    for (const script of ['step1-loop.ts', 'step2-tools.ts', 'step3-safety.ts']) {
      const run = await runExample(script, ['hello']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^\[model\] mock:\w+ \(the mock model: no ANTHROPIC_\*, OPENAI_\* or GEMINI_\* variable is set\)$/m);
    }
  });

  it('GEMINI_* set in part is one line naming what is missing, never the key', async () => {
    const run = await runExample('step1-loop.ts', ['hello'], { GEMINI_API_KEY: 'gemini-secret-key' });
    expectOneLineFailure(run, 1, /^\[error\] .*GEMINI_MODEL/);
    expect(run.stderr).not.toContain('gemini-secret-key');
  });

  it('a local server without a key works: no OPENAI_API_KEY, no Authorization header, the model named', async () => {
    const env = { OPENAI_BASE_URL: server.baseURL('ok'), OPENAI_MODEL: 'llama3' };
    const run = await runExample('step1-loop.ts', ['hello there'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`[model] openai:llama3 at ${server.baseURL('ok')} (no OPENAI_API_KEY: no key sent)`);
    expect(run.stdout).toContain('[assistant] You asked: hello there');
    const seen = server.requests.filter((request) => request.body.messages?.some((message) => message.content === 'hello there'));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((request) => request.authorization === undefined)).toBe(true);
  });
});

describe('examples/first-agent step4: a failed model call, then --resume', { timeout: 120_000 }, () => {
  it('offers the unanswered question again instead of leaving two user messages in a row', async () => {
    const dir = join(scratch, 'resume-sessions');
    const failed = await runExample('step4-session.ts', ['--dir', dir, 'What is in notes.txt?'], endpoint('500', { OPENAI_MAX_RETRIES: '0' }));
    expectOneLineFailure(failed, 1, /HTTP 500/);
    const id = /\[session\] ([\w-]+) new/.exec(failed.stdout)?.[1];
    expect(id, failed.stdout).toBeDefined();
    expect(failed.stdout).toContain(`Continue it with --resume ${id}`);

    const resumed = await runExample('step4-session.ts', ['--dir', dir, '--resume', id!, 'Thanks.'], endpoint('ok'));
    expect(resumed.code, resumed.stderr).toBe(0);
    const lines = resumed.stdout.trimEnd().split('\n');
    const unanswered = lines.indexOf('[unanswered] What is in notes.txt?: asking the model again');
    expect(unanswered, resumed.stdout).toBeGreaterThan(0);
    expect(lines[unanswered + 1]).toBe('[assistant] You asked: What is in notes.txt?');
    // The model saw each user message once, each followed by an answer before the next.
    const last = server.requests.filter((request) => request.mode === 'ok').at(-1)!;
    const roles = last.body.messages.map((message) => message.role);
    expect(roles.join(',')).not.toMatch(/user,user/);
  });
});
