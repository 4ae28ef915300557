import { describe, expect, it } from 'vitest';
import { createAgent, definePlugin, INTERRUPTED_CALL_CONTENT, ToolCallError, type SessionRecord } from '@weir/core';
import { answerApproval } from '../answer-approval.js';
import { listPendingApprovals } from '../list-pending-approvals.js';
import { createMemorySessionStore } from '../memory-session-store.js';
import { checkApprovalFleet } from './approval-fleet.js';
import { MARKER_PROMPT, markerHarness, markerModel } from './marker-agent.js';

/**
 * One allowed approval session taken all the way in this process: suspended, answered, resumed
 * with a dispatcher that answers as a tool worker would (`code`), or runs the body (no code).
 */
async function allowedSession(id: string, code?: 'INTERRUPTED' | 'NO_WORKER'): Promise<{ records: readonly SessionRecord[]; key: string }> {
  const store = createMemorySessionStore();
  await (await store.create({ id })).close();
  const harness = await markerHarness(() => undefined);
  if (code !== undefined) {
    await harness.use(
      definePlugin({
        name: 'worker-answer',
        setup: (ctx) =>
          void ctx.hooks.execute.tapPromise(async () => async () => {
            throw new ToolCallError(code, code === 'INTERRUPTED' ? INTERRUPTED_CALL_CONTENT : 'no worker took it');
          }),
      }),
    );
  }
  const suspend = await store.open(id);
  await createAgent({ model: markerModel, harness, session: suspend, onUnansweredApproval: 'suspend' }).turn(MARKER_PROMPT);
  await suspend.close();
  const [pending] = await listPendingApprovals(store, { sessionIds: [id] });
  await answerApproval(store, pending!, { decision: 'allow' });
  const resume = await store.open(id);
  await createAgent({ model: markerModel, harness, session: resume, onUnansweredApproval: 'suspend' }).resume();
  await resume.close();
  const records = await store.read(id);
  const key = records.flatMap((record) => (record.type === 'message' && record.message.role === 'assistant' ? (record.message.toolCalls ?? []) : []))[0]!.key!;
  return { records, key };
}

const check = (session: { records: readonly SessionRecord[]; key: string }, id: string, runs: number, remoteBodies?: boolean) =>
  checkApprovalFleet([], new Map([[id, session.records]]), new Map(runs === 0 ? [] : [[session.key, runs]]), process.pid, remoteBodies === undefined ? {} : { remoteBodies });

describe('checkApprovalFleet with bodies on tool workers', () => {
  it("a worker's INTERRUPTED answer passes only with remoteBodies, with the body run once or not at all, never twice", async () => {
    const session = await allowedSession('approval-1', 'INTERRUPTED');
    expect(() => check(session, 'approval-1', 1)).toThrow(/result is INTERRUPTED with 1 runs/);
    expect(check(session, 'approval-1', 0, true)).toMatchObject({ interruptedOnWorker: 1, interruptedOnWorkerAfterRunning: 0, ranOnce: 0 });
    expect(check(session, 'approval-1', 1, true)).toMatchObject({ interruptedOnWorker: 1, interruptedOnWorkerAfterRunning: 1 });
    expect(() => check(session, 'approval-1', 2, true)).toThrow(/ran 2 times/);
  });

  it('NO_WORKER passes only when the body never ran', async () => {
    const session = await allowedSession('approval-2', 'NO_WORKER');
    expect(check(session, 'approval-2', 0, true)).toMatchObject({ noWorker: 1 });
    expect(() => check(session, 'approval-2', 1, true)).toThrow(/withdrawn as NO_WORKER ran 1 times/);
  });

  it('an ok result still needs exactly one run', async () => {
    const session = await allowedSession('approval-4');
    expect(check(session, 'approval-4', 1, true)).toMatchObject({ ranOnce: 1 });
    expect(() => check(session, 'approval-4', 0, true)).toThrow(/result is ok with 0 runs/);
  });
});
