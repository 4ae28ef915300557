import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, definePlugin, isHarnessError, type Harness, type ToolResult } from '@weir/core';
import { assertPluginConformance } from '@weir/core/testing';
import { PassThrough } from 'node:stream';
import { safety, terminalApprover, type Approver, type ApproverAnswer, type ApproverRequest, type SafetyOptions } from '@weir/safety';
import { makeWorkspace, realSandbox, sandboxPlugin } from './support/workspace.js';
import { testTools, type BodyLog } from './support/tools.js';

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let harness: Harness;
let ran: BodyLog;
let sandbox: ReturnType<typeof realSandbox>;

beforeEach(async () => {
  workspace = await makeWorkspace();
  await mkdir(join(workspace.root, 'src'));
  await writeFile(join(workspace.root, 'src', 'a.ts'), 'export {};\n');
  ran = [];
  sandbox = realSandbox(workspace.root);
});

afterEach(async () => {
  await harness?.close();
  await workspace.remove();
});

async function setup(options: SafetyOptions, harnessOptions: Parameters<typeof createHarness>[0] = {}, withSandbox = true) {
  harness = createHarness(harnessOptions);
  if (withSandbox) await harness.use(sandboxPlugin(sandbox));
  await harness.use(testTools(ran));
  await harness.use(safety(options));
  return harness;
}

/** An approver that answers from a script and records what it was shown. */
function scripted(...answers: ApproverAnswer[]) {
  const seen: ApproverRequest[] = [];
  const approver: Approver = (request) => {
    seen.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`unexpected approval request for ${request.toolName}`);
    return answer;
  };
  return { approver, seen };
}

let nextId = 0;
function call(name: string, args: Record<string, unknown> | string, id = `call_${(nextId += 1)}`) {
  return harness.executeToolCall({ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
}

function expectDenied(result: ToolResult, message?: RegExp) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe('DENIED');
  if (message) expect(result.error.message).toMatch(message);
}

describe('safety: modes through the pipeline', () => {
  it('read-only runs read-only tools and denies the rest without asking', async () => {
    const { approver, seen } = scripted();
    await setup({ mode: 'read-only', approver });
    expect((await call('read_file', { path: 'src/a.ts' })).ok).toBe(true);
    expectDenied(await call('write_file', { path: 'src/b.ts', content: 'x' }), /Policy "safety" denied this write_file call: safety mode "read-only" runs only read-only tools/);
    expectDenied(await call('run_command', { command: 'ls' }));
    expect(seen).toHaveLength(0);
    expect(ran).toEqual(['read_file src/a.ts']);
  });

  it('ask (the default) runs read-only tools and asks for write and dangerous ones', async () => {
    const { approver, seen } = scripted({ decision: 'allow' }, { decision: 'deny' });
    await setup({ approver });
    expect((await call('read_file', { path: 'src/a.ts' })).ok).toBe(true);
    expect((await call('write_file', { path: 'src/b.ts', content: 'x' })).ok).toBe(true);
    expectDenied(await call('run_command', { command: 'rm -rf /' }), /^The user denied this run_command call\.$/);
    expect(seen.map((request) => [request.toolName, request.tier])).toEqual([
      ['write_file', 'write'],
      ['run_command', 'dangerous'],
    ]);
    expect(ran).toEqual(['read_file src/a.ts', 'write_file src/b.ts']);
  });

  it('auto runs write tools and asks for dangerous ones', async () => {
    const { approver, seen } = scripted({ decision: 'allow' });
    await setup({ mode: 'auto', approver });
    expect((await call('write_file', { path: 'src/b.ts' })).ok).toBe(true);
    expect((await call('run_command', { command: 'ls' })).ok).toBe(true);
    expect(seen.map((request) => request.toolName)).toEqual(['run_command']);
  });

  it('allow-all-unsafe runs everything without an approver', async () => {
    await setup({ mode: 'allow-all-unsafe' });
    expect((await call('run_command', { command: 'ls' })).ok).toBe(true);
    expect((await call('write_file', { path: 'src/b.ts' })).ok).toBe(true);
  });

  it('refuses bad options at once with INVALID_PLUGIN', () => {
    for (const options of [{ mode: 'yolo' }, { rules: [{ deny: 'x', paths: '.env' }] }, { approver: 'tty' }, { rule: [] }, { pathArguments: [] }]) {
      let thrown: unknown;
      try {
        safety(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(isHarnessError(thrown, 'INVALID_PLUGIN')).toBe(true);
    }
  });
});

describe('safety: rules with a real sandbox', () => {
  it('{ deny: write_file, path: .env } denies in every mode, also through ./ and through a symlink', async () => {
    await writeFile(join(workspace.root, '.env'), 'TOKEN=1\n');
    await symlink(join(workspace.root, '.env'), join(workspace.root, 'innocent'));
    await setup({ mode: 'allow-all-unsafe', rules: [{ deny: 'write_file', path: '.env' }] });
    for (const path of ['.env', './.env', 'src/../.env', 'innocent', '.ENV']) {
      expectDenied(await call('write_file', { path }), /forbids it/);
    }
    expect((await call('write_file', { path: 'src/b.ts' })).ok).toBe(true);
    expect(ran).toEqual(['write_file src/b.ts']);
  });

  it('{ allow: read_file, path: src/** } with ask-rules and a symlink: both the literal and the canonical path must match', async () => {
    await mkdir(join(workspace.root, 'lib'));
    await writeFile(join(workspace.root, 'lib', 'secret.ts'), '');
    await symlink(join(workspace.root, 'lib', 'secret.ts'), join(workspace.root, 'src', 'link.ts'));
    const { approver, seen } = scripted({ decision: 'deny' }, { decision: 'deny' });
    await setup({ rules: [{ allow: 'write_file', path: 'src/**' }], approver });
    expect((await call('write_file', { path: 'src/new.ts' })).ok).toBe(true);
    expectDenied(await call('write_file', { path: 'src/link.ts' }));
    expectDenied(await call('write_file', { path: `${workspace.root}/src/new.ts` }));
    expect(seen.map((request) => request.arguments.path)).toEqual(['src/link.ts', `${workspace.root}/src/new.ts`]);
  });

  it('an allow path rule fails closed when the sandbox refuses the path or no sandbox is loaded', async () => {
    const { approver, seen } = scripted({ decision: 'deny' });
    await setup({ rules: [{ allow: 'write_file', path: '**' }], approver });
    expectDenied(await call('write_file', { path: '../outside.txt' }));
    expect(seen[0]?.reason).toContain('the sandbox refused it (PATH_OUTSIDE_WORKSPACE');
    await harness.close();

    const second = scripted({ decision: 'deny' });
    await setup({ rules: [{ allow: 'write_file', path: '**' }], approver: second.approver }, {}, false);
    expectDenied(await call('write_file', { path: 'src/b.ts' }));
    expect(second.seen).toHaveLength(1);
  });

  it('a protected path asks every time, even in auto mode and after "allow for this session"', async () => {
    const { approver, seen } = scripted({ decision: 'allow', scope: 'session' }, { decision: 'allow' });
    await setup({ mode: 'auto', approver });
    expect((await call('write_file', { path: '.git/hooks/pre-commit' })).ok).toBe(true);
    expect((await call('write_file', { path: '.git/hooks/pre-commit' })).ok).toBe(true);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.session).toBeUndefined();
    expect(seen[0]?.reason).toContain('protected path');
  });

  it('evaluates the policy once per call: the sandbox is asked once, and the approver sees the scope computed for those arguments', async () => {
    const { approver, seen } = scripted({ decision: 'allow' });
    await setup({ approver });
    await call('write_file', { path: 'src/b.ts', content: 'x' });
    expect(sandbox.calls).toBe(1);
    expect(seen[0]?.session).toEqual({ description: 'write_file on src/**' });
    expect(Object.isFrozen(seen[0]?.arguments)).toBe(true);
  });
});

describe('safety: allow for this session', () => {
  it('covers the same tool inside the pattern shown, and nothing else', async () => {
    const { approver, seen } = scripted({ decision: 'allow', scope: 'session' }, { decision: 'deny' }, { decision: 'deny' }, { decision: 'deny' });
    await setup({ approver });
    await mkdir(join(workspace.root, 'src', 'deep'));
    expect((await call('write_file', { path: 'src/a.ts', content: '1' })).ok).toBe(true);
    // Inside the pattern: no prompt.
    expect((await call('write_file', { path: 'src/b.ts', content: '2' })).ok).toBe(true);
    expect((await call('write_file', { path: 'src/deep/c.ts', content: '3' })).ok).toBe(true);
    // Another tool with the very same arguments: asked.
    expectDenied(await call('edit_file', { path: 'src/a.ts', content: '1' }));
    // Outside the pattern: asked.
    expectDenied(await call('write_file', { path: 'notes.md', content: '4' }));
    expectDenied(await call('write_file', { path: 'src/../notes.md', content: '4' }));
    expect(seen.map((request) => `${request.toolName} ${String(request.arguments.path)}`)).toEqual([
      'write_file src/a.ts',
      'edit_file src/a.ts',
      'write_file notes.md',
      'write_file src/../notes.md',
    ]);
  });

  it('for a dangerous tool, covers exactly the same arguments only', async () => {
    const { approver, seen } = scripted({ decision: 'allow', scope: 'session' }, { decision: 'deny' });
    await setup({ approver });
    expect((await call('run_command', { command: 'npm test', path: 'src' })).ok).toBe(true);
    expect((await call('run_command', { path: 'src', command: 'npm test' })).ok).toBe(true);
    expectDenied(await call('run_command', { command: 'rm -rf .', path: 'src' }));
    expect(seen[0]?.session).toEqual({ description: 'run_command with exactly these arguments' });
    expect(seen).toHaveLength(2);
  });

  it('"allow once" remembers nothing', async () => {
    const { approver, seen } = scripted({ decision: 'allow', scope: 'once' }, { decision: 'deny' });
    await setup({ approver });
    expect((await call('write_file', { path: 'src/a.ts' })).ok).toBe(true);
    expectDenied(await call('write_file', { path: 'src/a.ts' }));
    expect(seen).toHaveLength(2);
  });

  it('is forgotten when the plugin unloads: a new session starts with nothing granted', async () => {
    const first = scripted({ decision: 'allow', scope: 'session' });
    harness = createHarness();
    await harness.use(sandboxPlugin(sandbox));
    await harness.use(testTools(ran));
    const plugin = safety({ approver: (request) => first.approver(request) });
    const unload = await harness.use(plugin);
    await call('write_file', { path: 'src/a.ts' });
    await unload();
    const second = scripted({ decision: 'deny' });
    await harness.use(safety({ approver: second.approver }));
    expectDenied(await call('write_file', { path: 'src/b.ts' }));
    expect(second.seen).toHaveLength(1);
  });

  it('a late "allow for this session" after the timeout grants nothing', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const approver: Approver = async () => {
      await answered;
      return { decision: 'allow', scope: 'session' };
    };
    const late = scripted({ decision: 'deny' });
    let useLate = false;
    await setup({ approver: (request) => (useLate ? late.approver(request) : approver(request)) }, { approvalTimeoutMs: 30 });
    expectDenied(await call('write_file', { path: 'src/a.ts' }), /No approval came within/);
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    useLate = true;
    expectDenied(await call('write_file', { path: 'src/b.ts' }));
    expect(late.seen).toHaveLength(1);
    expect(ran).toEqual([]);
  });
});

describe('safety: fail-closed approvals', () => {
  it('no approver: every call that asks is denied, and the rest still run', async () => {
    await setup({});
    expectDenied(await call('write_file', { path: 'src/a.ts' }), /write_file needs approval and no approver is available/);
    expect((await call('read_file', { path: 'src/a.ts' })).ok).toBe(true);
    expect(ran).toEqual(['read_file src/a.ts']);
  });

  it('an approver that throws denies', async () => {
    await setup({ approver: () => { throw new Error('prompt crashed'); } });
    expectDenied(await call('write_file', { path: 'src/a.ts' }), /The approval prompt failed \(prompt crashed\)/);
    expect(ran).toEqual([]);
  });

  it('an approver that hangs past the approval timeout denies, and its signal aborts so a prompt can close', async () => {
    let signal: AbortSignal | undefined;
    await setup({ approver: (request) => { signal = request.signal; return new Promise(() => {}); } }, { approvalTimeoutMs: 50 });
    expectDenied(await call('write_file', { path: 'src/a.ts' }), /No approval came within/);
    expect(signal?.aborted).toBe(true);
    expect(ran).toEqual([]);
  });

  it('an abort while asking denies and aborts the approver\'s signal', async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    await setup({ approver: (request) => { signal = request.signal; setTimeout(() => controller.abort(new Error('user pressed stop')), 10); return new Promise(() => {}); } });
    const result = await harness.executeToolCall({ id: 'c', name: 'write_file', arguments: '{"path":"src/a.ts"}' }, { signal: controller.signal });
    expectDenied(result, /cancelled while waiting for approval/);
    expect(signal?.aborted).toBe(true);
    expect(ran).toEqual([]);
  });

  it('an answer that is not a clear allow denies', async () => {
    await setup({ approver: () => ({ decision: 'yes' }) as never });
    expectDenied(await call('write_file', { path: 'src/a.ts' }));
  });

  it.each([
    ['not JSON', '{"path": "src/a.ts"'],
    ['not an object', '["src/a.ts"]'],
    ['failing the schema', '{"path": 42}'],
    ['with an unknown argument', '{"path": "src/a.ts", "mode": "0777"}'],
  ])('arguments %s never reach the guard or the approver', async (_name, raw) => {
    const { approver, seen } = scripted();
    await setup({ approver });
    const result = await call('write_file', raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toHaveLength(0);
    expect(sandbox.calls).toBe(0);
  });

  it('arguments rewritten by a prepareExecution tap are what the guard and the approver see', async () => {
    const { approver, seen } = scripted({ decision: 'deny' });
    harness = createHarness();
    await harness.use(sandboxPlugin(sandbox));
    await harness.use(testTools(ran));
    await harness.use(definePlugin({
      name: 'rewriter',
      setup: (ctx) => void ctx.hooks.prepareExecution.tapPromise(async (preparation) => preparation.status === 'ready' ? { status: 'ready', arguments: { ...preparation.arguments, path: '.env' } } : undefined),
    }));
    await harness.use(safety({ mode: 'auto', rules: [{ ask: 'write_file', path: '.env' }], approver }));
    expectDenied(await call('write_file', { path: 'src/a.ts' }));
    expect(seen[0]?.arguments).toEqual({ path: '.env' });
  });
});

describe('safety with terminalApprover and no terminal', () => {
  const headless = () => terminalApprover({ input: new PassThrough(), output: new PassThrough() });

  it('denies every call that needs a prompt, saying there was no terminal to ask', async () => {
    await setup({ mode: 'ask', approver: headless() });
    expectDenied(await call('write_file', { path: 'src/b.ts' }), /^The approval prompt failed \(there is no terminal to ask: stdin is not a TTY\), so the call was denied\.$/);
    expect((await call('read_file', { path: 'src/a.ts' })).ok).toBe(true);
  });

  it('runs what the mode allows without a prompt: allow-all-unsafe writes, read-only reads', async () => {
    await setup({ mode: 'allow-all-unsafe', approver: headless() });
    expect((await call('write_file', { path: 'src/b.ts' })).ok).toBe(true);
    expect((await call('run_command', { command: 'ls' })).ok).toBe(true);
    // A protected path still needs a person, and there is none.
    expectDenied(await call('write_file', { path: '.git/config' }), /no terminal to ask/);
    expect(ran).toEqual(['write_file src/b.ts', 'run_command ls']);
  });
});

describe('safety: a denial goes back to the model and the loop goes on', () => {
  it('returns DENIED with the person\'s message, then runs the next calls of the batch', async () => {
    const { approver } = scripted({ decision: 'deny', message: 'Do not touch that file; write to notes/ instead.' }, { decision: 'allow' });
    await setup({ approver });
    const results = await harness.executeToolCalls([
      { id: 'a', name: 'write_file', arguments: '{"path":"src/a.ts"}' },
      { id: 'b', name: 'read_file', arguments: '{"path":"src/a.ts"}' },
      { id: 'c', name: 'write_file', arguments: '{"path":"notes.md"}' },
    ], { concurrency: 1 });
    expect(results.map((result) => [result.callId, result.ok])).toEqual([['a', false], ['b', true], ['c', true]]);
    const [denied] = results;
    expect(denied?.ok).toBe(false);
    if (denied && !denied.ok) {
      expect(denied.error).toEqual({ code: 'DENIED', message: 'The user denied this write_file call. The user said: Do not touch that file; write to notes/ instead.' });
      expect(denied.content).toBe('Error [DENIED]: The user denied this write_file call. The user said: Do not touch that file; write to notes/ instead.');
    }
    expect(ran).toEqual(['read_file src/a.ts', 'write_file notes.md']);
  });

  it('answers concurrent calls of a batch each with its own decision', async () => {
    const approver: Approver = async (request) => (request.arguments.path === 'src/ok.ts' ? { decision: 'allow' } : { decision: 'deny', message: `not ${String(request.arguments.path)}` });
    await setup({ approver });
    const results = await harness.executeToolCalls(['src/ok.ts', 'src/no.ts', 'src/ok.ts'].map((path, index) => ({ id: `p${index}`, name: 'write_file', arguments: { path } })));
    expect(results.map((result) => (result.ok ? 'ok' : result.error.message))).toEqual(['ok', 'The user denied this write_file call. The user said: not src/no.ts', 'ok']);
  });
});

describe('safety: as a plugin', () => {
  it('passes the conformance kit: unloading leaves the harness exactly as before', async () => {
    harness = createHarness();
    const report = await assertPluginConformance(safety({ approver: () => ({ decision: 'deny' }) }));
    expect(report.plugin).toBe('safety');
  });

  it('holds the approval responder: a second responder is refused (SLOT_TAKEN)', async () => {
    await setup({ approver: () => ({ decision: 'deny' }) });
    const other = definePlugin({ name: 'other-approver', setup: (ctx) => void ctx.approval.setResponder(() => ({ decision: 'allow' })) });
    await expect(harness.use(other)).rejects.toMatchObject({ code: 'PLUGIN_SETUP_FAILED' });
  });

  it('when another plugin\'s guard asks, the approver is asked without a session offer', async () => {
    const { approver, seen } = scripted({ decision: 'allow', scope: 'session' }, { decision: 'deny' });
    await setup({ mode: 'allow-all-unsafe', approver });
    await harness.use(definePlugin({ name: 'strict', setup: (ctx) => void ctx.guards.add(() => ({ decision: 'ask', reason: 'strict asks' })) }));
    expect((await call('read_file', { path: 'src/a.ts' })).ok).toBe(true);
    expect(seen[0]?.session).toBeUndefined();
    expect(seen[0]?.reason).toBe('strict asks');
    expectDenied(await call('read_file', { path: 'src/a.ts' }));
  });
});
