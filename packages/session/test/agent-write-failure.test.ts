import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileSessionStore } from '../src/index.js';
import { createAgent, definePlugin, type AgentEvent, type LanguageModel, type ModelRequest, type ModelResponse } from '@weir/core';
// The core's own test helpers: the same echo tool and harness the core's tests use.
import { echoTool, harnessWith } from '../../core/test/support.js';
import { faultyFileSystem } from './fixtures/faulty-file-system.js';

// A failing write or sync never lets the agent go on with persistence silently off (docs/sessions.md,
// "How the agent uses the store", 7): the turn stops with the session's error, no tool body runs after
// it, and every later turn refuses to start.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-agent-fail-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A model that answers from `answers` in order (core cannot depend on @weir/llm-mock), counting its calls. */
function inlineModel(answers: Partial<ModelResponse>[]) {
  const requests: ModelRequest[] = [];
  const model: LanguageModel = {
    id: 'inline',
    async complete(request) {
      requests.push(request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no more answers');
      return { text: '', toolCalls: [], finishReason: answer.toolCalls?.length ? 'tool_calls' : 'stop', ...answer };
    },
  };
  return { model, requests };
}

const writeCall = { toolCalls: [{ id: 'w1', name: 'echo', arguments: { text: 'side effect' } }] };

async function setup(options: { ask?: boolean } = {}) {
  const { fs, faults } = faultyFileSystem();
  const store = createFileSessionStore(dir, { fs });
  const session = await store.create({ id: 's' });
  const { tool, body } = echoTool({ tier: 'write' });
  const harness = await harnessWith([tool]);
  let asked = 0;
  if (options.ask) {
    await harness.use(
      definePlugin({
        name: 'ask',
        setup(ctx) {
          ctx.guards.add(() => ({ decision: 'ask' }));
          ctx.approval.setResponder(() => {
            asked += 1;
            return { decision: 'allow' };
          });
        },
      }),
    );
  }
  return { store, session, faults, body, harness, asked: () => asked };
}

describe('agent with a session: a failing write stops the turn', () => {
  it('a start record that cannot be synced: the side-effecting body never runs, and the turn rejects with SESSION_WRITE_FAILED', async () => {
    const { session, faults, body, harness } = await setup();
    const { model, requests } = inlineModel([writeCall, { text: 'done' }]);
    const agent = createAgent({ model, harness, session });
    faults.datasync = 'ENOSPC';
    const events: AgentEvent[] = [];
    await expect(agent.turn('write it', { onEvent: (event) => events.push(event) })).rejects.toMatchObject({
      code: 'SESSION_WRITE_FAILED',
      cause: expect.objectContaining({ code: 'ENOSPC' }),
    });
    expect(body).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
    expect(events.map((event) => event.type)).not.toContain('turn-end');
    await session.close();
  });

  it('after a failure, every later turn rejects with it at once, without calling the model or touching the history', async () => {
    const { session, faults, harness } = await setup();
    const { model, requests } = inlineModel([writeCall, { text: 'never' }]);
    const agent = createAgent({ model, harness, session });
    faults.datasync = 'EIO';
    await expect(agent.turn('write it')).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    faults.datasync = undefined;
    const length = agent.messages.length;
    await expect(agent.turn('and now?')).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(requests).toHaveLength(1);
    expect(agent.messages).toHaveLength(length);
    await session.close();
  });

  it('a message write that fails (a full disk) stops the turn before any tool body runs', async () => {
    const { session, faults, body, harness } = await setup();
    const { model, requests } = inlineModel([writeCall, { text: 'done' }]);
    const agent = createAgent({ model, harness, session });
    faults.write = 'ENOSPC';
    await expect(agent.turn('write it')).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED', cause: expect.objectContaining({ code: 'ENOSPC' }) });
    expect(body).not.toHaveBeenCalled();
    await session.close();
  });

  it('an approval that cannot be recorded denies the call, and the turn rejects with SESSION_WRITE_FAILED', async () => {
    const { session, faults, body, harness, asked } = await setup({ ask: true });
    const { model } = inlineModel([writeCall, { text: 'done' }]);
    const agent = createAgent({ model, harness, session });
    faults.datasync = 'EIO';
    await expect(agent.turn('write it')).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(asked()).toBe(1);
    expect(body).not.toHaveBeenCalled();
    await session.close();
  });

  it('a turn end that cannot be synced rejects the turn instead of reporting an end that was not recorded', async () => {
    const { session, faults, harness } = await setup();
    const { model } = inlineModel([{ text: 'hello' }]);
    const agent = createAgent({ model, harness, session });
    const events: AgentEvent[] = [];
    faults.datasync = 'EIO';
    await expect(agent.turn('hi', { onEvent: (event) => events.push(event) })).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    expect(events.map((event) => event.type)).toEqual(['turn-start', 'model-call-start', 'model-call-end']);
    await session.close();
  });

  it('a record the session cannot store (INVALID_SESSION_RECORD) stops the turn too, though the session itself stays usable', async () => {
    const { session } = await setup();
    // Any object is valid here, so only the session keeps the body from running.
    const { tool, body } = echoTool({ name: 'loose', tier: 'write', parameters: { type: 'object' } });
    const harness = await harnessWith([tool]);
    // A BigInt in the arguments cannot be written as JSON: the assistant message is refused.
    const { model } = inlineModel([{ toolCalls: [{ id: 'w1', name: 'loose', arguments: { text: 'x', n: 1n } as never }] }, { text: 'done' }]);
    const agent = createAgent({ model, harness, session });
    await expect(agent.turn('write it')).rejects.toMatchObject({ code: 'INVALID_SESSION_RECORD' });
    expect(body).not.toHaveBeenCalled();
    await expect(agent.turn('again')).rejects.toMatchObject({ code: 'INVALID_SESSION_RECORD' });
    await session.close();
  });
});
