import { strict as assert } from 'node:assert';
import { argumentsHash, createAgent } from '@weir/core';
import { answerApproval } from '../answer-approval.js';
import { listPendingApprovals } from '../list-pending-approvals.js';
import type { SessionStore } from '../session-store.js';
import { MARKER_ARGS, MARKER_PROMPT, markerHarness as effectHarness, markerModel } from './marker-agent.js';

/** A marker harness whose body notes its arguments in `ran`, then waits for `body` (if any). */
const markerHarness = (ran: unknown[], body?: () => Promise<void>) =>
  effectHarness(async (args) => {
    ran.push(args);
    await body?.();
  });

/** How the suite registers one case: a fresh store, and `restart()` standing for another process. */
export type ApprovalCaseRegistrar = (title: string, body: (made: { readonly store: SessionStore; readonly restart: () => SessionStore }) => Promise<void>) => void;

const codeOf = (error: unknown) => (error as { code?: unknown }).code;
const rejectsWith = (promise: Promise<unknown>, code: string) => assert.rejects(promise, (error: unknown) => (assert.equal(codeOf(error), code), true));

/** Suspends one call in a new session of `store` (this process has nobody to answer) and closes the session. */
async function suspendOne(store: SessionStore, ran: unknown[]) {
  const session = await store.create();
  const agent = createAgent({ model: markerModel, harness: await markerHarness(ran), session, onUnansweredApproval: 'suspend' });
  const result = await agent.turn(MARKER_PROMPT);
  await session.close();
  return { id: session.id, result };
}

/**
 * The approvals cases of the store conformance suite: a turn suspended at an approval is listed and
 * answered through another instance of the store (another process), and resumed through a third;
 * the call runs once with the approved arguments, a denied one never, and a call cut off after its
 * start is reported interrupted, not run again.
 */
export function registerApprovalCases(test: ApprovalCaseRegistrar): void {
  test('approvals outlive the process: a suspended call is listed and answered elsewhere, and runs exactly once on resume with the approved arguments', async ({ store, restart }) => {
    const ran: unknown[] = [];
    const { id, result } = await suspendOne(store, ran);
    assert.equal(result.stopReason, 'awaiting_approval');
    assert.deepEqual(ran, [], 'a suspended call must not run');
    const waiting = result.awaitingApproval?.[0];
    assert.ok(waiting !== undefined && result.awaitingApproval!.length === 1);
    assert.deepEqual(waiting.arguments, MARKER_ARGS);
    assert.equal(waiting.argumentsHash, argumentsHash(MARKER_ARGS));

    const listed = (await listPendingApprovals(restart())).filter((pending) => pending.sessionId === id);
    assert.equal(listed.length, 1);
    assert.deepEqual(
      { callKey: listed[0]!.callKey, toolName: listed[0]!.toolName, arguments: listed[0]!.arguments, argumentsHash: listed[0]!.argumentsHash, answer: listed[0]!.answer },
      { callKey: waiting.callKey, toolName: 'write_marker', arguments: MARKER_ARGS, argumentsHash: waiting.argumentsHash, answer: undefined },
    );
    // An answer is bound to the arguments its giver was shown.
    await rejectsWith(answerApproval(restart(), { ...listed[0]!, argumentsHash: argumentsHash({ name: 'other' }) }, { decision: 'allow' }), 'APPROVAL_MISMATCH');
    await answerApproval(restart(), listed[0]!, { decision: 'allow' });
    // One answer per request: a second, from anyone, is refused.
    await rejectsWith(answerApproval(restart(), listed[0]!, { decision: 'deny' }), 'APPROVAL_NOT_PENDING');
    assert.deepEqual((await listPendingApprovals(restart(), { sessionIds: [id] })).length, 0);
    assert.deepEqual((await listPendingApprovals(restart(), { sessionIds: [id], includeAnswered: true })).map((pending) => pending.answer), [{ decision: 'allow' }]);

    const session = await restart().open(id);
    const agent = createAgent({ model: markerModel, harness: await markerHarness(ran), session, onUnansweredApproval: 'suspend' });
    assert.equal(agent.turnOpen, true);
    assert.deepEqual(agent.pending.map((call) => call.key), [waiting.callKey]);
    const finished = await agent.resume();
    await session.close();
    assert.equal(finished.stopReason, 'stop');
    assert.equal(finished.text, 'Done: wrote m1');
    assert.deepEqual(ran, [MARKER_ARGS]);

    // Resumed again (another host, later): nothing is left to run.
    const again = await restart().open(id);
    const idle = createAgent({ model: markerModel, harness: await markerHarness(ran), session: again, onUnansweredApproval: 'suspend' });
    assert.equal(idle.turnOpen, false);
    await idle.resume();
    await again.close();
    assert.deepEqual(ran, [MARKER_ARGS], 'an approved call runs exactly once');
    assert.deepEqual(await listPendingApprovals(restart(), { sessionIds: [id], includeAnswered: true }), []);
  });

  test('approvals outlive the process: a denied call never runs, and the model reads the denial with its message', async ({ store, restart }) => {
    const ran: unknown[] = [];
    const { id } = await suspendOne(store, ran);
    const [pending] = await listPendingApprovals(restart(), { sessionIds: [id] });
    assert.ok(pending !== undefined);
    await answerApproval(restart(), pending, { decision: 'deny', message: 'not today' });
    const session = await restart().open(id);
    const finished = await createAgent({ model: markerModel, harness: await markerHarness(ran), session, onUnansweredApproval: 'suspend' }).resume();
    await session.close();
    assert.deepEqual(ran, []);
    const denied = finished.toolResults[0];
    assert.ok(denied !== undefined && !denied.ok && denied.error.code === 'DENIED');
    assert.match(finished.text, /denied.*not today/);
  });

  test('approvals outlive the process: an approved call cut off after its start (its writer taken over) is reported interrupted, never run again', async ({ store, restart }) => {
    const ran: unknown[] = [];
    const { id } = await suspendOne(store, ran);
    const [pending] = await listPendingApprovals(restart(), { sessionIds: [id] });
    await answerApproval(restart(), pending!, { decision: 'allow' });

    // The first resumer starts the call and hangs in its body, like a host that stops answering.
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const hung = await restart().open(id);
    const abort = new AbortController();
    const first = createAgent({ model: markerModel, harness: await markerHarness(ran, () => (entered(), new Promise<void>(() => undefined))), session: hung, onUnansweredApproval: 'suspend', signal: abort.signal });
    const firstTurn = first.resume().catch((error: unknown) => error);
    await started;

    const taken = await restart().open(id, { takeOver: true });
    const second = createAgent({ model: markerModel, harness: await markerHarness(ran), session: taken, onUnansweredApproval: 'suspend' });
    assert.deepEqual(second.interrupted.map((call) => [call.toolName, call.started]), [['write_marker', true]]);
    assert.deepEqual(second.pending, []);
    const finished = await second.resume();
    await taken.close();
    assert.match(finished.text, /interrupted: outcome unknown/);
    abort.abort();
    // The old writer is fenced: whatever it still does is refused, and the body ran once in all.
    assert.equal(codeOf(await firstTurn), 'SESSION_FENCED');
    await hung.close().catch(() => undefined);
    assert.deepEqual(ran, [MARKER_ARGS]);
  });
}
