import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, definePlugin } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { commandHooks, runTurnWithHooks } from '@weir/hooks';
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
const on = (event: string, command: string, matcher?: string) => ({ [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] }] });

describe('PostToolUse and PostToolUseFailure', () => {
  it('a block replaces the result with the reason; the file was written (the tool had run)', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, on('PostToolUse', 'cat > post.json; echo \'{"decision":"block","reason":"lint failed: no-var"}\'', 'Write'))]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'write_file', arguments: { path: 'a.js', content: 'var x;\n' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'BLOCKED' } });
    expect(result.content).toContain('lint failed: no-var');
    expect(readFileSync(join(p.dir, 'a.js'), 'utf8')).toBe('var x;\n');
    const payload = JSON.parse(readFileSync(join(p.dir, 'post.json'), 'utf8'));
    expect(payload).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(p.dir, 'a.js'), content: 'var x;\n' } });
    expect(payload.tool_response).toBeDefined();
    await harness.close();
  });

  it('additionalContext joins the result', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, on('PostToolUse', `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted with prettier"}}'`))]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'write_file', arguments: { path: 'a.txt', content: 'x' } });
    expect(result).toMatchObject({ ok: true });
    expect(result.content).toContain('formatted with prettier');
    await harness.close();
  });

  it('a failed call reaches PostToolUseFailure with the error, and a failing post hook leaves the result as it was', async () => {
    const p = await project();
    const { harness } = await hookedHarness(p.dir, [layer(p.dir, { ...on('PostToolUseFailure', 'cat > failure.json'), ...on('PostToolUse', 'exit 1') })]);
    const failed = await harness.executeToolCall({ id: 'c1', name: 'read_file', arguments: { path: 'missing.txt' } });
    expect(failed.ok).toBe(false);
    expect(JSON.parse(readFileSync(join(p.dir, 'failure.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_name: 'Read', error: failed.content });
    expect(await harness.executeToolCall({ id: 'c2', name: 'write_file', arguments: { path: 'a.txt', content: 'x' } })).toMatchObject({ ok: true, content: expect.not.stringContaining('hook') });
    await harness.close();
  });
});

describe('a turn between UserPromptSubmit and Stop', () => {
  it('a blocked prompt never reaches the model; a failing prompt hook blocks too (fail closed)', async () => {
    const p = await project();
    for (const command of ['echo "no secrets in prompts" >&2; exit 2', 'sleep 5']) {
      const model = createScriptedModel([]);
      const harness = createHarness();
      const hooks = commandHooks({ projectDir: p.dir, layers: [layer(p.dir, { UserPromptSubmit: [{ hooks: [{ type: 'command', command, timeout: 0.3 }] }] })] });
      await harness.use(hooks.plugin);
      const turn = await runTurnWithHooks(createAgent({ model, harness }), 'my key is sk-123', hooks.events);
      expect(turn.result).toBeUndefined();
      expect(turn.blockedPrompt).toMatch(command.startsWith('echo') ? /no secrets in prompts/ : /timed out after 0.3 s.*; weir fails closed/);
      expect(model.requests).toHaveLength(0);
      await harness.close();
    }
  });

  it('a prompt of parts (an attached file) reaches the prompt hook as its text: a block holds, and context joins as a text part', async () => {
    const p = await project();
    const attached = [{ type: 'text' as const, text: 'review this' }, { type: 'resource' as const, uri: 'file:///w/.env', name: '.env', text: 'API_KEY=sk-123' }];
    const blocking = commandHooks({ projectDir: p.dir, layers: [layer(p.dir, on('UserPromptSubmit', 'cat > prompt.json; grep -q sk- prompt.json && { echo "no secrets in prompts" >&2; exit 2; }; exit 0'))] });
    const model = createScriptedModel([{ text: 'ok' }]);
    const harness = createHarness();
    await harness.use(blocking.plugin);
    const blocked = await runTurnWithHooks(createAgent({ model, harness }), attached, blocking.events);
    expect(blocked.blockedPrompt).toMatch(/no secrets in prompts/);
    expect(JSON.parse(readFileSync(join(p.dir, 'prompt.json'), 'utf8'))).toMatchObject({ prompt: 'review this\n\nAPI_KEY=sk-123' });
    expect(model.requests).toHaveLength(0);
    await harness.close();

    const adding = commandHooks({ projectDir: p.dir, layers: [layer(p.dir, on('UserPromptSubmit', 'echo "Branch: main"'))] });
    const second = createHarness();
    await second.use(adding.plugin);
    await runTurnWithHooks(createAgent({ model, harness: second }), [attached[0]!], adding.events);
    expect(model.requests[0]!.messages.at(-1)!.content).toBe('review this\n\nBranch: main'); // text-only parts reach the model as one text
    await second.close();
  });

  it('context from a prompt hook joins the prompt', async () => {
    const p = await project();
    const model = createScriptedModel([{ text: 'ok' }]);
    const harness = createHarness();
    const hooks = commandHooks({ projectDir: p.dir, layers: [layer(p.dir, on('UserPromptSubmit', 'echo "Branch: main"'))] });
    await harness.use(hooks.plugin);
    await runTurnWithHooks(createAgent({ model, harness }), 'what branch?', hooks.events);
    expect(model.requests[0]!.messages.at(-1)!.content).toBe('what branch?\n\nBranch: main');
    await harness.close();
  });

  it('a prompt of parts (an MCP prompt with a resource) reaches the hook as its text and the model whole, the context as one more part', async () => {
    const p = await project();
    const model = createScriptedModel([{ text: 'ok' }]);
    const harness = createHarness();
    const hooks = commandHooks({ projectDir: p.dir, layers: [layer(p.dir, on('UserPromptSubmit', 'cat > prompt.json; echo "Branch: main"'))] });
    await harness.use(hooks.plugin);
    const parts = [
      { type: 'text' as const, text: 'review this' },
      { type: 'resource' as const, uri: 'file:///a.ts', text: 'const a = 1;' },
    ];
    await runTurnWithHooks(createAgent({ model, harness }), parts, hooks.events);
    expect(JSON.parse(readFileSync(join(p.dir, 'prompt.json'), 'utf8'))).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'review this\n\nconst a = 1;' });
    expect(model.requests[0]!.messages.at(-1)).toMatchObject({ role: 'user', parts: [...parts, { type: 'text', text: 'Branch: main' }] });
    await harness.close();
  });

  it('a Stop block makes the agent go on with the reason, bounded: stop_hook_active says it is a repeat', async () => {
    const p = await project();
    const model = createScriptedModel([{ text: 'done?' }, { text: 'again' }, { text: 'still' }]);
    const harness = createHarness();
    // Blocks every stop, as a published "until tests pass" rule that never matches did.
    const hooks = commandHooks({ projectDir: p.dir, layers: [layer(p.dir, on('Stop', 'cat >> stops.jsonl; echo >> stops.jsonl; echo \'{"decision":"block","reason":"run the tests first"}\''))] });
    await harness.use(hooks.plugin);
    const turn = await runTurnWithHooks(createAgent({ model, harness }), 'fix it', hooks.events, { maxStopBlocks: 2 });
    expect(turn).toMatchObject({ stopBlocks: 2, stopBoundReached: true });
    expect(turn.result!.text).toBe('still');
    expect(model.requests[1]!.messages.at(-1)!.content).toBe('run the tests first');
    const stops = readFileSync(join(p.dir, 'stops.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(stops.map((stop) => stop.stop_hook_active)).toEqual([false, true, true]);
    expect(stops[0]).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'done?' });
    model.assertAllUsed();
    await harness.close();
  });

  it('SessionStart, SessionEnd, PreCompact and Notification run with their fields and matchers; their failures go on', async () => {
    const p = await project();
    const hooks = commandHooks({
      projectDir: p.dir,
      layers: [
        layer(p.dir, {
          SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo started; cat > start.json' }] }, { matcher: 'resume', hooks: [{ type: 'command', command: 'touch resumed' }] }],
          SessionEnd: [{ hooks: [{ type: 'command', command: 'cat > end.json; exit 1' }] }],
          PreCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: 'cat > compact.json' }] }],
          Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'command', command: 'cat > notify.json' }] }],
        }),
      ],
    });
    const start = await hooks.events.sessionStart('startup');
    expect(start.context).toBe('started');
    expect(existsSync(join(p.dir, 'resumed'))).toBe(false);
    expect(JSON.parse(readFileSync(join(p.dir, 'start.json'), 'utf8'))).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(await hooks.events.sessionEnd('prompt_input_exit')).toMatchObject({ blocked: false });
    expect(JSON.parse(readFileSync(join(p.dir, 'end.json'), 'utf8'))).toMatchObject({ reason: 'prompt_input_exit' });
    await hooks.events.preCompact('auto');
    expect(JSON.parse(readFileSync(join(p.dir, 'compact.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto' });
    await hooks.events.notification('weir needs your approval for run_command', 'permission_prompt');
    expect(JSON.parse(readFileSync(join(p.dir, 'notify.json'), 'utf8'))).toMatchObject({ notification_type: 'permission_prompt', message: 'weir needs your approval for run_command' });
  });
});

describe('SubagentStop', () => {
  it("carries the subagent's name as agent_type (and the call as agent_id), and its matchers select by that name", async () => {
    const p = await project();
    const hooks = commandHooks({
      projectDir: p.dir,
      layers: [layer(p.dir, { SubagentStop: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: 'cat > reviewer.json' }] }, { matcher: 'planner', hooks: [{ type: 'command', command: 'touch planner' }] }] })],
    });
    const result = await hooks.events.subagentStop(false, 'looks good', { type: 'reviewer', id: 'call_7' });
    expect(result.outcomes).toHaveLength(1);
    expect(existsSync(join(p.dir, 'planner'))).toBe(false);
    expect(JSON.parse(readFileSync(join(p.dir, 'reviewer.json'), 'utf8'))).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'reviewer', agent_id: 'call_7', last_assistant_message: 'looks good', stop_hook_active: false });
  });
});

describe('trust and listing', () => {
  it("an untrusted project's hooks are listed with why, and never run: no marker file, no guard", async () => {
    const p = await project();
    const untrusted = layer(p.dir, { ...on('PreToolUse', 'touch marker; exit 2'), ...on('SessionStart', 'touch marker'), ...on('PostToolUse', 'touch marker') }, { trusted: false });
    const { harness, hooks } = await hookedHarness(p.dir, [untrusted]);
    expect(hooks.hooks).toHaveLength(3);
    for (const hook of hooks.hooks) expect(hook.skipped).toMatch(/not trusted/);
    expect(await harness.executeToolCall({ id: 'c1', name: 'write_file', arguments: { path: 'a.txt', content: 'x' } })).toMatchObject({ ok: true });
    expect((await hooks.events.sessionStart('startup')).outcomes).toHaveLength(0);
    expect(existsSync(join(p.dir, 'marker'))).toBe(false);
    await harness.close();
  });

  it('a hooks section that is not the format is INVALID_HOOKS naming the file and the place', async () => {
    const p = await project();
    const bad = layer(p.dir, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] });
    expect(() => commandHooks({ projectDir: p.dir, layers: [bad] })).toThrow(expect.objectContaining({ code: 'INVALID_HOOKS', message: expect.stringContaining(`${bad.file} is not valid: "hooks.PreToolUse[0].hooks[0].command"`) }));
    expect(() => commandHooks({ projectDir: p.dir, layers: [layer(p.dir, { PreToolUse: [{ matcher: '(', hooks: [] }] })] })).toThrow(expect.objectContaining({ code: 'INVALID_HOOKS' }));
  });

  it('other handler types and unknown events are listed as not run', async () => {
    const p = await project();
    const hooks = commandHooks({ projectDir: p.dir, layers: [layer(p.dir, { Stop: [{ hooks: [{ type: 'prompt', prompt: 'x' } as never] }], TeammateIdle: [{ hooks: [{ type: 'command', command: 'true' }] }] })] });
    expect(hooks.hooks.map((hook) => hook.skipped)).toEqual([expect.stringContaining('"command" hooks only'), expect.stringContaining('no event "TeammateIdle"')]);
  });
});
