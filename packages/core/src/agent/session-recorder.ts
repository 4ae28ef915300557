import type { ApprovalKey, ApprovalMemory, ApprovalResponse, PendingApprovalRequest } from '../policy/approval.js';
import type { AwaitingApproval } from './awaiting-approval.js';
import { HarnessError, isHarnessError } from '../harness-error.js';
import type { Message } from './model.js';
import type { ApprovalLedger } from './approval-ledger.js';
import type { SessionEntry } from './session-record.js';
import type { AppendOptions, Session } from './session.js';
import type { ToolCallJournal } from '../pipeline/tool-call-journal.js';
import type { ToolResult } from '../tools/tool-result.js';

/**
 * Writes one agent's conversation to its session as it happens (docs/sessions.md, "How the agent
 * uses the store"): messages and results are queued without a sync; a side-effecting call's start,
 * an approval answer and the end of a turn are made durable before anything goes on.
 *
 * The first failure is kept for good: every later record is refused and `check()` throws it, so
 * the agent never goes on with persistence silently off (the caller reopens the session instead).
 */
export class SessionRecorder {
  /** For `executeToolCalls`: stored decisions reused, fresh answers recorded durably before the body runs. */
  readonly approvals: ApprovalMemory;
  /** For `executeToolCalls`: each start (synced unless read-only) before its body runs, each result in call order. */
  readonly journal: ToolCallJournal;
  readonly #session: Session;
  readonly #ledger: ApprovalLedger;
  /** Answers given since the session was opened (the ledger holds those read at open). */
  readonly #answers = new Map<string, ApprovalResponse>();
  /** Calls suspended since the last `takeSuspended()`, by call id (unique in the agent's history). */
  readonly #suspended = new Map<string, AwaitingApproval>();
  #failure: HarnessError | undefined;

  /** With `suspend`, a call nobody can approve here is stored as an `approval_request` and suspended instead of denied. */
  constructor(session: Session, ledger: ApprovalLedger, options: { readonly suspend?: boolean } = {}) {
    this.#session = session;
    this.#ledger = ledger;
    const find = (key: ApprovalKey) => this.#findApproval(key);
    const record = (key: ApprovalKey, response: ApprovalResponse) => this.#recordApproval(key, response);
    this.approvals = options.suspend === true ? { find, record, suspend: (key, request) => this.#suspend(key, request) } : { find, record };
    this.journal = {
      started: (call) =>
        this.#append({ type: 'tool_call_started', callId: call.callId, toolName: call.toolName, arguments: call.arguments }, { sync: call.tier !== 'read-only' }),
      // A suspended call has no result yet: it stays open in the session, for its answer and a resume.
      // Known by its id from the gate's own `suspend`, never from the result, so a tool cannot fake it.
      settled: (result) => {
        if (!this.#suspended.has(result.callId)) this.result(result);
      },
    };
  }

  /** The calls suspended since the last call (in call order of suspension), and forgets them. */
  takeSuspended(): readonly AwaitingApproval[] {
    const taken = [...this.#suspended.values()];
    this.#suspended.clear();
    return taken;
  }

  /** True once a record failed: the session no longer matches the conversation. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Throws the first recording failure, if there was one. */
  check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Queues a message record. Not synced: the next durability point covers it. */
  message(message: Message): void {
    this.#queue({ type: 'message', message });
  }

  /** Queues a compaction record: `count` messages from `from` became the summary. Not synced: the next durability point covers it. */
  compaction(from: number, count: number, summary: string): void {
    this.#queue({ type: 'compaction', from, count, summary });
  }

  /** Queues a tool result record. Not synced: the sync after the batch covers it. */
  result(result: ToolResult): void {
    this.#queue({
      type: 'tool_result',
      callId: result.callId,
      toolName: result.toolName,
      ok: result.ok,
      content: result.content,
      ...(result.parts === undefined ? {} : { parts: result.parts }),
      ...(result.ok ? {} : { error: { code: result.error.code, message: result.error.message } }),
    });
  }

  /** Makes every record so far durable. Throws the first failure, this sync's or an earlier queued record's. */
  async checkpoint(): Promise<void> {
    this.check();
    try {
      await this.#session.sync();
    } catch (error) {
      this.#fail(error);
    }
    this.check();
  }

  /** Records the end of a turn, durably. */
  turnEnd(reason: string): Promise<void> {
    return this.#append({ type: 'turn_end', reason }, { sync: true });
  }

  #findApproval(key: ApprovalKey): ApprovalResponse | undefined {
    const given = this.#answers.get(answerKey(key));
    if (given !== undefined) return given;
    const stored = this.#ledger.find(key.callKey, key.argumentsHash);
    if (stored === undefined || stored.toolName !== key.toolName) return undefined;
    return stored.message === undefined ? { decision: stored.decision } : { decision: stored.decision, message: stored.message };
  }

  async #recordApproval(key: ApprovalKey, response: ApprovalResponse): Promise<void> {
    await this.#append(
      {
        type: 'approval_decision',
        callId: key.callId,
        callKey: key.callKey,
        toolName: key.toolName,
        argsHash: key.argumentsHash,
        decision: response.decision,
        ...(response.message === undefined ? {} : { message: response.message }),
      },
      { sync: true },
    );
    this.#answers.set(answerKey(key), response);
  }

  async #suspend(key: ApprovalKey, request: PendingApprovalRequest): Promise<void> {
    await this.#append(
      {
        type: 'approval_request',
        callId: key.callId,
        callKey: key.callKey,
        toolName: key.toolName,
        tier: request.tier,
        argsHash: key.argumentsHash,
        arguments: request.arguments,
        ...(request.reason === undefined ? {} : { reason: request.reason }),
        ...(request.askedBy === undefined ? {} : { askedBy: request.askedBy }),
      },
      { sync: true },
    );
    this.#suspended.set(key.callId, {
      callId: key.callId,
      callKey: key.callKey,
      toolName: key.toolName,
      arguments: request.arguments,
      argumentsHash: key.argumentsHash,
      reason: request.reason,
      askedBy: request.askedBy,
    });
  }

  /** Appends and waits. Throws this record's failure, or that of any record queued before it: nothing goes on past a lost record. */
  async #append(entry: SessionEntry, options: AppendOptions): Promise<void> {
    this.check();
    try {
      await this.#session.append(entry, options);
    } catch (error) {
      this.#fail(error);
    }
    // Appends settle in order, so a queued record before this one has failed by now if it failed at all.
    this.check();
  }

  #queue(entry: SessionEntry): void {
    if (this.#failure !== undefined) return;
    // Appends are written in call order; a failure here surfaces at the next check or checkpoint.
    this.#session.append(entry).catch((error: unknown) => this.#fail(error));
  }

  #fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure = isHarnessError(error)
      ? error
      : new HarnessError('SESSION_WRITE_FAILED', `Recording the session failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

// NUL cannot occur in a hex hash, so the key is unambiguous whatever the call id holds.
const answerKey = (key: ApprovalKey) => `${key.argumentsHash}\u0000${key.toolName}\u0000${key.callKey}`;
