// PreCompact hooks on core's compaction: fired before the summary call of an automatic compaction
// and of agent.compact(), with Claude Code's payload; exit 2 or decision "block" stops it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, SUMMARY_PREFIX } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { commandHooks } from '@weir/hooks';
import { layer, tempProject } from './support/hook-project.js';

const projects: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  for (const project of projects.splice(0)) await project.remove();
});
async function project() {
  const made = await tempProject();
  projects.push(made);
  return made;
}
const preCompact = (command: string, matcher?: string) => ({ PreCompact: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] }] });

async function agentWith(dir: string, hooksSection: unknown, replies: string[], compact?: { maxTokens: number }) {
  const model = createScriptedModel(replies.map((text) => ({ text })));
  const harness = createHarness();
  const hooks = commandHooks({ projectDir: dir, layers: [layer(dir, hooksSection)], session: () => ({ id: 'session-1', transcriptPath: '/tmp/session-1.jsonl' }) });
  await harness.use(hooks.plugin);
  const agent = createAgent({ model, harness, system: 'S', ...(compact === undefined ? {} : { compact: { ...compact, keepSteps: 1, countTokens: (messages) => messages.length } }) });
  return { model, harness, agent };
}

describe('PreCompact', () => {
  it('agent.compact() fires it with trigger manual and the instructions, then compacts', async () => {
    const p = await project();
    const { agent, model, harness } = await agentWith(p.dir, preCompact('cat > compact.json', 'manual'), ['one', 'two', 'three', 'they greeted'], undefined);
    await agent.turn('hi');
    await agent.turn('hi again');
    // keepSteps is the default (2) here: agent.compact() uses the defaults without `compact`.
    await agent.turn('and again');
    const result = await agent.compact({ instructions: 'keep the greetings' }).catch((error) => error);
    expect(JSON.parse(readFileSync(join(p.dir, 'compact.json'), 'utf8'))).toEqual({
      session_id: 'session-1',
      transcript_path: '/tmp/session-1.jsonl',
      cwd: p.dir,
      permission_mode: 'default',
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'keep the greetings',
    });
    expect(result).toMatchObject({ status: 'compacted', summary: `${SUMMARY_PREFIX}they greeted` });
    expect(model.requests[3]!.messages[0]!.content).toContain('keep the greetings');
    model.assertAllUsed();
    await harness.close();
  });

  it('exit 2 stops it, with standard error as the reason; the history stays and no summary call is made', async () => {
    const p = await project();
    const { agent, model, harness } = await agentWith(p.dir, preCompact('echo "the migration is half done" >&2; exit 2'), ['one', 'two', 'three']);
    await agent.turn('hi');
    await agent.turn('hi again');
    await agent.turn('and again');
    expect(await agent.compact()).toEqual({ status: 'cancelled', by: 'hooks PreCompact', reason: 'the migration is half done' });
    expect(agent.messages).toHaveLength(7);
    model.assertAllUsed();
    await harness.close();
  });

  it('decision "block" stops it too; a hook that fails (exit 1) is logged and the compaction goes on', async () => {
    const p = await project();
    const blocking = await agentWith(p.dir, preCompact(`echo '{"decision":"block","reason":"not before the tests pass"}'`), ['one', 'two', 'three']);
    for (const text of ['a', 'b', 'c']) await blocking.agent.turn(text);
    expect(await blocking.agent.compact()).toMatchObject({ status: 'cancelled', reason: 'not before the tests pass' });
    await blocking.harness.close();

    const failing = await agentWith(p.dir, preCompact('exit 1'), ['one', 'two', 'three', 'summary']);
    for (const text of ['a', 'b', 'c']) await failing.agent.turn(text);
    expect(await failing.agent.compact()).toMatchObject({ status: 'compacted', summary: `${SUMMARY_PREFIX}summary` });
    await failing.harness.close();
  });

  it('an automatic compaction fires it with trigger auto and empty custom_instructions; a block keeps the whole history for the step', async () => {
    const p = await project();
    const { agent, model, harness } = await agentWith(p.dir, preCompact('cat >> compact.jsonl; echo >> compact.jsonl; echo "keep it all" >&2; exit 2', 'auto'), ['one', 'two', 'three'], { maxTokens: 4 });
    await agent.turn('hi');
    await agent.turn('hi again');
    // Turn 3's call: [S, hi, one, hi again, two, and again] is over the limit, and [hi, one, hi again] can go.
    await agent.turn('and again');
    const payloads = readFileSync(join(p.dir, 'compact.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(payloads).toEqual([expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' })]);
    expect(model.requests[2]!.messages).toHaveLength(6);
    model.assertAllUsed();
    await harness.close();
  });
});
