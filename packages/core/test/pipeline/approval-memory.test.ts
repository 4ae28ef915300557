import { describe, expect, it } from 'vitest';
import { argumentsHash, type ApprovalKey, type ApprovalMemory, type ApprovalRequest, type ApprovalResponse } from '@weir/core';
import { deferred, echoTool, harnessWith } from '../support.js';

const askAlways = { decision: 'ask' as const, reason: 'needs a person' };

/** A memory over a map, recording what it is asked and told. */
function mapMemory(stored: [ApprovalKey, ApprovalResponse][] = []) {
  const keyOf = (key: ApprovalKey) => `${key.callId} ${key.toolName} ${key.argumentsHash}`;
  const decisions = new Map(stored.map(([key, response]) => [keyOf(key), response]));
  const found: ApprovalKey[] = [];
  const recorded: [ApprovalKey, ApprovalResponse][] = [];
  const memory: ApprovalMemory = {
    find(key) {
      found.push(key);
      return decisions.get(keyOf(key));
    },
    async record(key, response) {
      recorded.push([key, response]);
      decisions.set(keyOf(key), response);
    },
  };
  return { memory, found, recorded };
}

async function askingHarness(respond: (request: ApprovalRequest) => ApprovalResponse | Promise<ApprovalResponse>, options?: { approvalTimeoutMs?: number }) {
  const { tool, body } = echoTool({ tier: 'write' });
  const requests: ApprovalRequest[] = [];
  const harness = await harnessWith(
    [tool],
    (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder((request) => {
        requests.push(request);
        return respond(request);
      });
    },
    options,
  );
  return { harness, body, requests };
}

// The harness's own key is made per execution: the tests key the map on the model's id, and match any callKey.
const key = (callId: string, args: unknown): ApprovalKey => ({ callId, callKey: expect.any(String) as unknown as string, toolName: 'echo', argumentsHash: argumentsHash(args) });

describe('stage 1: remembered approvals (ExecuteOptions.approvals)', () => {
  it('reuses a stored allow for the same call id and arguments: the responder is not asked, the body runs', async () => {
    const { harness, body, requests } = await askingHarness(() => ({ decision: 'deny' }));
    const { memory, found } = mapMemory([[key('c1', { text: 'x' }), { decision: 'allow' }]]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: '{"text":"x"}' }, { approvals: memory });
    expect(result).toMatchObject({ ok: true, content: 'x' });
    expect(requests).toEqual([]);
    expect(body).toHaveBeenCalledTimes(1);
    expect(found).toEqual([key('c1', { text: 'x' })]);
  });

  it('reuses a stored denial with its message, reading as it did when it was given', async () => {
    const { harness, body, requests } = await askingHarness(() => ({ decision: 'allow' }));
    const { memory } = mapMemory([[key('c1', { text: 'x' }), { decision: 'deny', message: 'not on Fridays' }]]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED', message: 'The user denied this echo call. The user said: not on Fridays' } });
    expect(requests).toEqual([]);
    expect(body).not.toHaveBeenCalled();
  });

  it('asks again for other arguments, or another call id: a decision never transfers', async () => {
    const { harness, body, requests } = await askingHarness(() => ({ decision: 'deny' }));
    const { memory } = mapMemory([[key('c1', { text: 'x' }), { decision: 'allow' }]]);
    const other = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'y' } }, { approvals: memory });
    const otherId = await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    expect([other.ok, otherId.ok]).toEqual([false, false]);
    expect(requests.map((request) => [request.callId, request.arguments])).toEqual([
      ['c1', { text: 'y' }],
      ['c2', { text: 'x' }],
    ]);
    expect(body).not.toHaveBeenCalled();
  });

  it('binds to the final arguments, whatever the order of their keys', async () => {
    const { tool, body } = echoTool({
      tier: 'write',
      parameters: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'number' } }, required: ['text'], additionalProperties: false },
    });
    let asked = 0;
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add(() => askAlways);
      ctx.approval.setResponder(() => {
        asked += 1;
        return { decision: 'deny' };
      });
    });
    const { memory } = mapMemory([[key('c1', { n: 1, text: 'x' }), { decision: 'allow' }]]);
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: '{"text":"x","n":1}' }, { approvals: memory });
    expect(result.ok).toBe(true);
    expect(asked).toBe(0);
    expect(body).toHaveBeenCalledTimes(1);
  });

  it('records a fresh answer, and the body runs only once the record is done', async () => {
    const { harness, body } = await askingHarness(() => ({ decision: 'allow' }));
    const reached = deferred();
    const recording = deferred();
    const recorded: [ApprovalKey, ApprovalResponse][] = [];
    const memory: ApprovalMemory = {
      find: () => undefined,
      record: async (recordKey, response) => {
        recorded.push([recordKey, response]);
        reached.resolve();
        await recording.promise;
      },
    };
    const pending = harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    await reached.promise;
    expect(body).not.toHaveBeenCalled();
    recording.resolve();
    expect(await pending).toMatchObject({ ok: true });
    expect(body).toHaveBeenCalledTimes(1);
    expect(recorded).toEqual([[key('c1', { text: 'x' }), { decision: 'allow' }]]);
  });

  it('records a denial with its message, so it is not asked again', async () => {
    const { harness, requests } = await askingHarness(() => ({ decision: 'deny', message: 'no' }));
    const { memory, recorded } = mapMemory();
    await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    const again = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    expect(recorded).toEqual([[key('c1', { text: 'x' }), { decision: 'deny', message: 'no' }]]);
    expect(requests).toHaveLength(1);
    expect(again).toMatchObject({ ok: false, error: { code: 'DENIED', message: expect.stringContaining('The user said: no') } });
  });

  it('denies when recording the answer fails: an allow that is not stored does not run', async () => {
    const { harness, body, requests } = await askingHarness(() => ({ decision: 'allow' }));
    const memory: ApprovalMemory = {
      find: () => undefined,
      record: async () => Promise.reject(new Error('disk full')),
    };
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED', message: expect.stringContaining('disk full') } });
    expect(requests).toHaveLength(1);
    expect(body).not.toHaveBeenCalled();
  });

  it('denies without asking when the memory cannot be read', async () => {
    const { harness, body, requests } = await askingHarness(() => ({ decision: 'allow' }));
    const memory: ApprovalMemory = {
      find: () => {
        throw new Error('unreadable');
      },
      record: async () => undefined,
    };
    const result = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED', message: expect.stringContaining('unreadable') } });
    expect(requests).toEqual([]);
    expect(body).not.toHaveBeenCalled();
  });

  it('records only answers: a responder that fails or a call aborted while waiting is asked again next time', async () => {
    let failing = true;
    const { harness, requests } = await askingHarness(() => {
      if (failing) throw new Error('terminal went away');
      return { decision: 'allow' };
    });
    const { memory, recorded } = mapMemory();
    const first = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    const controller = new AbortController();
    controller.abort();
    const aborted = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory, signal: controller.signal });
    failing = false;
    const third = await harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { approvals: memory });
    expect([first.ok, aborted.ok, third.ok]).toEqual([false, false, true]);
    expect(requests).toHaveLength(2);
    expect(recorded).toEqual([[key('c1', { text: 'x' }), { decision: 'allow' }]]);
  });

  it('is consulted only when a guard asks: allowed and denied calls never reach it', async () => {
    const { tool } = echoTool({ tier: 'write' });
    const harness = await harnessWith([tool], (ctx) => {
      ctx.guards.add((call) => ({ decision: (call.arguments as { text: string }).text === 'no' ? 'deny' : 'allow' }));
    });
    const { memory, found, recorded } = mapMemory();
    const results = await harness.executeToolCalls(
      [
        { id: 'c1', name: 'echo', arguments: { text: 'yes' } },
        { id: 'c2', name: 'echo', arguments: { text: 'no' } },
      ],
      { approvals: memory },
    );
    expect(results.map((result) => result.ok)).toEqual([true, false]);
    expect(found).toEqual([]);
    expect(recorded).toEqual([]);
  });
});
