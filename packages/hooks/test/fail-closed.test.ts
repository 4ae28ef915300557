import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { definePlugin } from '@weir/core';
import { hookedHarness, layer, tempProject } from './support/hook-project.js';

const projects: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  for (const project of projects.splice(0)) await project.remove();
});

async function project() {
  const made = await tempProject();
  projects.push(made);
  return made;
}

const preToolUse = (command: string, extra: Record<string, unknown> = {}) => ({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command, ...extra }] }] });
const write = { id: 'call_1', name: 'write_file', arguments: { path: 'out.txt', content: 'hello\n' } };

/** A process is gone when /proc has no entry for it, or only its zombie (dead, waiting to be reaped). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

describe('a PreToolUse hook that fails denies the call, naming the hook, its settings file and what happened', () => {
  it('sleeps past its timeout: its process group is killed, the body never runs, its marker is never made', async () => {
    const p = await project();
    await p.write('hook.sh', 'echo $$ > hook.pid\nsleep 30\ntouch marker\n');
    const settings = layer(p.dir, preToolUse('sh hook.sh', { timeout: 0.5 }));
    const { harness } = await hookedHarness(p.dir, [settings]);
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result.content).toContain('sh hook.sh');
    expect(result.content).toContain(settings.file);
    expect(result.content).toContain('timed out after 0.5 s');
    expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
    const pid = Number(readFileSync(join(p.dir, 'hook.pid'), 'utf8'));
    expect(gone(pid)).toBe(true);
    expect(existsSync(join(p.dir, 'marker'))).toBe(false);
    await harness.close();
  });

  it('is not executable: exit 126 denies', async () => {
    const p = await project();
    await p.write('hook.sh', '#!/bin/sh\nexit 0\n', 0o644);
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse('./hook.sh'))]);
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result.content).toContain('exited 126 (the command is not executable)');
    expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
    await harness.close();
  });

  it('cannot be found (a CRLF script is one): exit 127 denies', async () => {
    const p = await project();
    await p.write('hook.sh', '#!/bin/sh\r\nexit 0\r\n', 0o755);
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse('./hook.sh'))]);
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result.content).toContain('exited 127');
    await harness.close();
  });

  it('prints half a JSON object: denied as malformed', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse(`printf '{"hookSpecificOutput": {"permissionDecision": "al'`))]);
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result.content).toContain('malformed JSON');
    expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
    await harness.close();
  });

  it('forks a child and exits: the child is gone when the call goes on', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse('sleep 30 & echo $! > child.pid; exit 0'))]);
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: true });
    const pid = Number(readFileSync(join(p.dir, 'child.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(gone(pid)).toBe(true);
    await harness.close();
  });

  it('is killed by a signal, or exits 1: denied', async () => {
    const p = await project();
    for (const [command, words] of [
      ['kill -9 $$', 'was killed by SIGKILL'],
      ['echo "jq: not found" >&2; exit 1', 'exited 1: jq: not found'],
    ] as const) {
      const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse(command))]);
      const result = await harness.executeToolCall(write);
      expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
      expect(result.content).toContain(words);
      await harness.close();
    }
    expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
  });

  it('writes past the output cap: cut, and the cut JSON denies', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse(`printf '{"reason": "'; head -c 100000 /dev/zero | tr '\\0' a; printf '"}'`))], { maxOutputBytes: 1000 });
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result.content).toContain('cut at the output cap');
    await harness.close();
  });

  it('failMode "open" lets the call through after a failure, as the other agents do', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse('exit 1', { failMode: 'open' }))]);
    expect(await harness.executeToolCall(write)).toMatchObject({ ok: true });
    expect(readFileSync(join(p.dir, 'out.txt'), 'utf8')).toBe('hello\n');
    await harness.close();
  });
});

describe('a PreToolUse hook that answers', () => {
  it('exit 2 blocks with standard error as the reason', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse('echo "no writes today" >&2; exit 2'))]);
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result.content).toContain('no writes today');
    await harness.close();
  });

  it('runs in the project folder with WEIR_PROJECT_DIR and CLAUDE_PROJECT_DIR, without the harness API keys', async () => {
    const p = await project();
    const env = { ...process.env, OPENAI_API_KEY: 'sk-secret', ANTHROPIC_API_KEY: 'sk-ant', KEEP_ME: 'yes' };
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse('pwd > where.txt; env > env.txt'))], { env });
    expect(await harness.executeToolCall(write)).toMatchObject({ ok: true });
    expect(readFileSync(join(p.dir, 'where.txt'), 'utf8').trim()).toBe(p.dir);
    const seen = readFileSync(join(p.dir, 'env.txt'), 'utf8');
    expect(seen).toContain(`WEIR_PROJECT_DIR=${p.dir}\n`);
    expect(seen).toContain(`CLAUDE_PROJECT_DIR=${p.dir}\n`);
    expect(seen).toContain('KEEP_ME=yes\n');
    expect(seen).not.toContain('sk-secret');
    expect(seen).not.toContain('sk-ant');
    await harness.close();
  });

  it('reads the call in Claude Code shape on stdin', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse('cat > stdin.json'))], { session: () => ({ id: 's-1', transcriptPath: '/tmp/t.jsonl' }) });
    await harness.executeToolCall(write);
    const stdin = JSON.parse(readFileSync(join(p.dir, 'stdin.json'), 'utf8'));
    expect(stdin).toEqual({
      session_id: 's-1',
      transcript_path: '/tmp/t.jsonl',
      cwd: p.dir,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(p.dir, 'out.txt'), content: 'hello\n' },
      tool_use_id: 'call_1',
      weir_tool_name: 'write_file',
    });
    await harness.close();
  });

  it('updatedInput is merged, mapped back and validated again: a bad one is INVALID_ARGUMENTS and nothing runs', async () => {
    const p = await project();
    const good = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"${p.dir}/other.txt"}}}'`;
    let { harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse(good))]);
    expect(await harness.executeToolCall(write)).toMatchObject({ ok: true });
    expect(readFileSync(join(p.dir, 'other.txt'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
    await harness.close();
    ({ harness } = await hookedHarness(p.dir, [layer(p.dir, preToolUse(`echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"content":5}}}'`))]));
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
    await harness.close();
  });

  it('ask goes to the approver, whose request says which hook asked and why', async () => {
    const p = await project();
    const { harness, hooks } = await hookedHarness(p.dir, [layer(p.dir, preToolUse(`echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"writes need a look"}}'`))]);
    const asked: { reason: string | undefined; askedBy: string | undefined }[] = [];
    await harness.use(definePlugin({ name: 'approver', setup: (ctx) => void ctx.approval.setResponder((request) => (asked.push({ reason: request.reason, askedBy: request.askedBy }), { decision: 'deny', message: 'not now' })) }));
    const result = await harness.executeToolCall(write);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.askedBy).toMatch(/^hook /);
    expect(asked[0]!.reason).toContain('asks: writes need a look');
    expect(asked[0]!.reason).toContain(hooks.hooks[0]!.layer.file);
    await harness.close();
  });

  it('a matcher that does not take the tool runs nothing', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'touch ran; exit 2' }] }] })]);
    expect(await harness.executeToolCall(write)).toMatchObject({ ok: true });
    expect(existsSync(join(p.dir, 'ran'))).toBe(false);
    await harness.close();
  });
});
