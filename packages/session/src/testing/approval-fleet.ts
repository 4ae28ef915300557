import { createAgent, INTERRUPTED_CALL_CONTENT, isHarnessError, type Harness, type SessionRecord } from '@weir/core';
import { answerApproval } from '../answer-approval.js';
import { listPendingApprovals } from '../list-pending-approvals.js';
import { rebuildHistory } from '../rebuild-history.js';
import type { SessionStore } from '../session-store.js';
import { MARKER_PROMPT, markerHarness, markerModel } from './marker-agent.js';

// The approvals part of a store's fleet test (packages/session-postgres/test/fleet.test.ts and
// packages/session-redis/test/fleet.test.ts): each process of the fleet suspends turns at an
// approval, answers requests that other processes suspended, and resumes sessions that other
// processes answered; the test kills processes meanwhile, settles what is left, and checks every
// approved write ran once at most, exactly once whenever its result was recorded, a denied one never.

interface ApprovalFleetCommon {
  readonly store: SessionStore;
  /** The sessions the approval roles use (created empty by the test). */
  readonly sessionIds: readonly string[];
  /** Where the role lines go (`approval suspended|answered|resumed <session> <pid>`): the test collects them. */
  readonly print: (line: string) => void;
  /** Role loops this process runs at once (they share what it did, so the rule below holds). Default 1. */
  readonly concurrency?: number;
}

/** Where the approved body runs: in this process (`writeMarker`), or wherever `harness` sends it. */
export type ApprovalFleetOptions = ApprovalFleetCommon &
  (
    | {
        /** The approved call's side effect, run in this process: the test counts these per call key (a row, a list entry), not idempotent. */
        readonly writeMarker: (callKey: string, sessionId: string) => Promise<void>;
        readonly harness?: undefined;
      }
    | {
        /**
         * The harness every session's agent runs with, instead of one per session around
         * `writeMarker`: `markerHarness` plus a dispatcher that runs the body elsewhere (on tool
         * workers, `@weir/dispatch-bullmq`), whose marker the test counts the same way.
         */
        readonly harness: Harness;
        readonly writeMarker?: undefined;
      }
  );

/** Which answer a session's request gets: every third is denied, the rest allowed. */
export function fleetDecision(sessionId: string): 'allow' | 'deny' {
  const n = Number(sessionId.split('-').at(-1));
  return n % 3 === 0 ? 'deny' : 'allow';
}

// Lost races, and a lease lost to a pause longer than it (the session was taken over: this host drops it).
const TRANSIENT = new Set(['SESSION_LOCKED', 'APPROVAL_NOT_PENDING', 'SESSION_FENCED']);
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One process's approval work, forever (until it is killed): the roles in a random order until one
 * has work: suspend a fresh session's turn, answer a request another process suspended, or resume
 * a session another process answered.
 * A process never answers what it suspended, nor resumes what it answered or suspended, so each
 * step of a session happens in a different process. Rejects on anything but a lost race.
 */
export async function serveApprovalRoles(options: ApprovalFleetOptions): Promise<never> {
  const { store, sessionIds, print } = options;
  const suspendedHere = new Set<string>();
  const answeredHere = new Set<string>();
  const roles: (() => Promise<boolean>)[] = [
    async () => {
      const id = pick(sessionIds.filter((candidate) => !suspendedHere.has(candidate)));
      if (id === undefined || (await store.read(id)).length > 1) return false;
      const session = await store.open(id);
      try {
        // Checked again under the lock: another process may have started it meanwhile.
        if (session.records().length > 1) return false;
        suspendedHere.add(id);
        const agent = createAgent({ model: markerModel, harness: await harnessFor(options, id), session, onUnansweredApproval: 'suspend' });
        const result = await agent.turn(MARKER_PROMPT);
        if (result.stopReason === 'awaiting_approval') print(`approval suspended ${id} ${process.pid}`);
        return true;
      } finally {
        await session.close().catch(() => undefined);
      }
    },
    async () => {
      const pending = pick((await listPendingApprovals(store, { sessionIds })).filter((request) => !suspendedHere.has(request.sessionId)));
      if (pending === undefined) return false;
      const decision = fleetDecision(pending.sessionId);
      // Marked before the answer is written: this process's other loop, listing answered requests
      // while this one awaits, must not resume what this process answered.
      answeredHere.add(pending.sessionId);
      await answerApproval(store, pending, { decision, ...(decision === 'deny' ? { message: 'not in this fleet' } : {}) });
      print(`approval answered ${pending.sessionId} ${process.pid}`);
      return true;
    },
    async () => {
      const answered = (await listPendingApprovals(store, { sessionIds, includeAnswered: true })).filter(
        (request) => request.answer !== undefined && !answeredHere.has(request.sessionId) && !suspendedHere.has(request.sessionId),
      );
      const id = pick(answered)?.sessionId;
      if (id === undefined) return false;
      const session = await store.open(id);
      try {
        const agent = createAgent({ model: markerModel, harness: await harnessFor(options, id), session, onUnansweredApproval: 'suspend' });
        if (!agent.turnOpen) return false;
        await agent.resume();
        print(`approval resumed ${id} ${process.pid}`);
        return true;
      } finally {
        await session.close().catch(() => undefined);
      }
    },
  ];
  const loop = async (): Promise<never> => {
    for (;;) {
      // The roles in a random order, until one finds work: a lost race counts as none.
      for (const role of [...roles].sort(() => Math.random() - 0.5)) {
        try {
          if (await role()) break;
        } catch (error) {
          if (!(isHarnessError(error) && TRANSIENT.has(error.code))) throw error;
        }
      }
      await sleep(20);
    }
  };
  return Promise.race(Array.from({ length: options.concurrency ?? 1 }, loop));
}

/**
 * After the fleet is gone: answers what still waits and resumes what is still open, in this
 * process, until every session's turn has ended (or `rounds` passes were not enough: the check
 * then fails on what is left). Sessions that no process touched are suspended here first.
 */
export async function settleApprovals(options: ApprovalFleetOptions, rounds = 5): Promise<void> {
  const { store, sessionIds, print } = options;
  for (let round = 0; round < rounds; round += 1) {
    let worked = false;
    for (const pending of await listPendingApprovals(store, { sessionIds })) {
      await answerApproval(store, pending, { decision: fleetDecision(pending.sessionId) });
      print(`approval answered ${pending.sessionId} ${process.pid}`);
      worked = true;
    }
    for (const id of sessionIds) {
      if (finished(await store.read(id))) continue;
      const session = await store.open(id);
      try {
        const agent = createAgent({ model: markerModel, harness: await harnessFor(options, id), session, onUnansweredApproval: 'suspend' });
        if (session.records().length === 1) {
          await agent.turn(MARKER_PROMPT);
          print(`approval suspended ${id} ${process.pid}`);
        } else if (agent.turnOpen) {
          await agent.resume();
          print(`approval resumed ${id} ${process.pid}`);
        }
        worked = true;
      } finally {
        await session.close();
      }
    }
    if (!worked) return;
  }
}

/**
 * The marker turn is over: the model gave its last answer (a process killed right after it leaves
 * no `turn_end`, and nothing is left to do) and no call waits.
 */
function finished(records: readonly SessionRecord[]): boolean {
  const history = rebuildHistory(records, { pending: 'leave' });
  const last = history.messages.at(-1);
  return history.pending.length === 0 && last?.role === 'assistant' && (last.toolCalls ?? []).length === 0 && last.content.startsWith('Done:');
}

const harnessFor = async (options: ApprovalFleetOptions, sessionId: string): Promise<Harness> => {
  if (options.harness !== undefined) return options.harness;
  const { writeMarker } = options;
  return markerHarness((_, exec) => writeMarker(exec.callKey, sessionId));
};

/** What the approval part of a fleet run did. */
export interface ApprovalFleetFigures {
  readonly sessions: number;
  /** Sessions whose request was suspended, answered and resumed by three different worker processes. */
  readonly threeProcesses: number;
  readonly allowed: number;
  /** Allowed calls with a recorded result: each ran exactly once. */
  readonly ranOnce: number;
  /** Allowed calls cut off after their start: reported interrupted to the model; each ran once or not at all (never twice). */
  readonly interrupted: number;
  /** Of those, how many had run before the cut (their marker is there). */
  readonly interruptedAfterRunning: number;
  /** Allowed calls answered `INTERRUPTED` by a tool worker (the job of a killed worker came back): each ran once or not at all. */
  readonly interruptedOnWorker: number;
  /** Of those, how many had run before the worker was killed (their marker is there). */
  readonly interruptedOnWorkerAfterRunning: number;
  /** Allowed calls that no tool worker took in time (`NO_WORKER`): withdrawn, never ran. */
  readonly noWorker: number;
  readonly denied: number;
  /** Sessions the settling pass had to finish (their workers were killed or never reached them). */
  readonly settledByTest: number;
}

export interface ApprovalFleetCheckOptions {
  /**
   * The bodies ran on tool workers (`@weir/dispatch-bullmq`) that were killed too: an allowed call's
   * recorded result may then be the worker's `INTERRUPTED` (ran once or not at all) or `NO_WORKER`
   * (never ran). Otherwise a recorded result is the body's own, and ok.
   */
  readonly remoteBodies?: boolean;
}

/**
 * Throws on the first broken promise: a call run twice, a denied call run, an allowed call with a
 * result and no run (or a run and a failed result, unless `options.remoteBodies` allows the
 * worker's answer), two answers to one request, a session left waiting or open. `markers` counts
 * runs per call key; `lines` are the printed role lines.
 */
export function checkApprovalFleet(
  lines: readonly string[],
  sessions: ReadonlyMap<string, readonly SessionRecord[]>,
  markers: ReadonlyMap<string, number>,
  testPid: number,
  options: ApprovalFleetCheckOptions = {},
): ApprovalFleetFigures {
  const roles = new Map<string, { suspended: Set<string>; answered: Set<string>; resumed: Set<string> }>();
  for (const line of lines) {
    const [, role, id, pid] = line.split(' ') as [string, 'suspended' | 'answered' | 'resumed', string, string];
    // Other lines (a worker's own, such as where its body is) are not roles.
    if (role !== 'suspended' && role !== 'answered' && role !== 'resumed') continue;
    const entry = roles.get(id) ?? { suspended: new Set(), answered: new Set(), resumed: new Set() };
    entry[role].add(pid);
    roles.set(id, entry);
  }
  let threeProcesses = 0;
  let allowed = 0;
  let ranOnce = 0;
  let interrupted = 0;
  let interruptedAfterRunning = 0;
  let denied = 0;
  let settledByTest = 0;
  let interruptedOnWorker = 0;
  let interruptedOnWorkerAfterRunning = 0;
  let noWorker = 0;
  const keys = new Set<string>();
  for (const [id, records] of sessions) {
    const calls = records.flatMap((record) => (record.type === 'message' && record.message.role === 'assistant' ? (record.message.toolCalls ?? []) : []));
    if (calls.length !== 1 || calls[0]!.key === undefined) throw new Error(`session ${id}: expected one write_marker call, found ${calls.length}`);
    const { id: callId, key } = calls[0]!;
    keys.add(key!);
    const decisions = records.filter((record) => record.type === 'approval_decision' && record.callKey === key);
    if (decisions.length !== 1) throw new Error(`session ${id}: ${decisions.length} answers to one request`);
    const decision = decisions[0]!.type === 'approval_decision' ? decisions[0]!.decision : undefined;
    if (decision !== fleetDecision(id)) throw new Error(`session ${id}: answered ${decision}, expected ${fleetDecision(id)}`);
    const started = records.filter((record) => record.type === 'tool_call_started' && record.callId === callId).length;
    const results = records.filter((record): record is Extract<SessionRecord, { type: 'tool_result' }> => record.type === 'tool_result' && record.callId === callId);
    const ran = markers.get(key!) ?? 0;
    if (ran > 1) throw new Error(`session ${id}: the approved write ran ${ran} times`);
    if (started > 1) throw new Error(`session ${id}: the call started ${started} times`);
    if (!finished(records)) throw new Error(`session ${id}: left unfinished after its ${records.at(-1)?.type} record`);
    if (decision === 'deny') {
      denied += 1;
      if (ran !== 0 || started !== 0) throw new Error(`session ${id}: a denied call ran (${ran} runs, ${started} starts)`);
      if (results.length !== 1 || results[0]!.ok || results[0]!.error?.code !== 'DENIED') throw new Error(`session ${id}: a denied call has no DENIED result`);
    } else {
      allowed += 1;
      if (started !== 1) throw new Error(`session ${id}: an allowed call started ${started} times`);
      if (results.length > 1) throw new Error(`session ${id}: an allowed call has ${results.length} results`);
      if (results.length === 1 && results[0]!.ok) {
        if (ran !== 1) throw new Error(`session ${id}: an allowed call's result is ok with ${ran} runs`);
        ranOnce += 1;
      } else if (results.length === 1) {
        // In process, a body that started ends with its result or with the process. On a tool worker
        // it may also end as the worker's: the job of a killed worker came back with its start mark
        // (INTERRUPTED: ran once or not at all), or no worker took it in time (NO_WORKER: withdrawn, never ran).
        const code = results[0]!.error?.code;
        if (options.remoteBodies !== true || (code !== 'INTERRUPTED' && code !== 'NO_WORKER')) throw new Error(`session ${id}: an allowed call's result is ${code} with ${ran} runs`);
        if (code === 'NO_WORKER') {
          if (ran !== 0) throw new Error(`session ${id}: a call withdrawn as NO_WORKER ran ${ran} times`);
          noWorker += 1;
        } else {
          interruptedOnWorker += 1;
          if (ran === 1) interruptedOnWorkerAfterRunning += 1;
        }
      } else {
        // Cut off between its start and its result: the model was told, never run again.
        const told = rebuildHistory(records).messages.some((message) => message.role === 'tool' && message.toolCallId === callId && message.content === INTERRUPTED_CALL_CONTENT);
        if (!told) throw new Error(`session ${id}: a call cut off after its start was not reported interrupted`);
        interrupted += 1;
        if (ran === 1) interruptedAfterRunning += 1;
      }
    }
    const seen = roles.get(id);
    const own = String(testPid);
    if (seen !== undefined && [...seen.suspended, ...seen.answered, ...seen.resumed].includes(own)) settledByTest += 1;
    const workers = (set: Set<string>) => [...set].filter((pid) => pid !== own);
    const [s, a, r] = [workers(seen?.suspended ?? new Set()), workers(seen?.answered ?? new Set()), workers(seen?.resumed ?? new Set())];
    if (s.some((pid) => a.includes(pid) || r.includes(pid)) || a.some((pid) => r.includes(pid))) throw new Error(`session ${id}: one process did two of suspend, answer, resume`);
    if (s.length > 0 && a.length > 0 && r.length > 0) threeProcesses += 1;
  }
  for (const key of markers.keys()) if (!keys.has(key)) throw new Error(`a marker was written for call ${key}, which no session asked for`);
  return { sessions: sessions.size, threeProcesses, allowed, ranOnce, interrupted, interruptedAfterRunning, interruptedOnWorker, interruptedOnWorkerAfterRunning, noWorker, denied, settledByTest };
}
