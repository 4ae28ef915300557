import pTimeout from 'p-timeout';
import type { ToolArguments } from '../tools/call-context.js';
import { createDisposer, type Disposer } from '../disposer.js';
import type { ToolTier } from '../tools/define-tool.js';
import { HarnessError } from '../harness-error.js';
import { argumentsHash } from '../canonical-json.js';
import { awaitPlugin, CallAborted } from '../pipeline/await-plugin.js';

/** What a person (or a policy) is asked. The arguments are the exact, final, frozen ones the body will get. */
export interface ApprovalRequest {
  readonly callId: string;
  /** The harness's key for this execution: one approval covers this one execution. */
  readonly callKey: string;
  readonly toolName: string;
  readonly tier: ToolTier;
  readonly arguments: ToolArguments;
  /** Why approval is needed (the asking guard's reason). */
  readonly reason: string | undefined;
  /** The owner of the guard that asked, so a responder can tell a protected-path ask from a mode's. */
  readonly askedBy: string | undefined;
  /**
   * `'plugin'` when a plugin asked on its own (`ctx.approval.request`: an MCP server asking the
   * user something during a call), not a guard about the call itself: no policy decided it, and
   * `askedBy` is that plugin. Absent for the pipeline's own asks.
   */
  readonly origin?: 'plugin';
  /** Aborts when the call is cancelled or the answer took too long: close the prompt. */
  readonly signal: AbortSignal;
}

export interface ApprovalResponse {
  readonly decision: 'allow' | 'deny';
  /** With a denial: what the model is told. */
  readonly message?: string;
}

export type ApprovalResponder = (request: ApprovalRequest) => ApprovalResponse | Promise<ApprovalResponse>;

/** What a plugin asks through `ctx.approval.request`: `askedBy` and `origin` are set by the harness. */
export type PluginApprovalRequest = Omit<ApprovalRequest, 'signal' | 'askedBy' | 'origin'>;

/**
 * The answer the pipeline acts on. Anything but a clear `allow` is a denial, except `suspended`:
 * nobody could answer, the memory stored the request for a later answer, and the call does not
 * run now (it settles `AWAITING_APPROVAL`).
 */
export type ApprovalOutcome =
  | { readonly approved: true }
  | { readonly approved: false; readonly message: string; readonly suspended?: true };

/** What an approval decision is bound to: one call, with exactly these arguments. */
export interface ApprovalKey {
  readonly callId: string;
  /**
   * The harness's key for this execution (unique across turns, agents and processes): a stored
   * decision is found by it, so a decision never covers a second execution, even one with the same
   * model id and arguments.
   */
  readonly callKey: string;
  readonly toolName: string;
  /** `argumentsHash(arguments)`: SHA-256 of the canonical JSON of the exact arguments the approver was shown. */
  readonly argumentsHash: string;
}

/**
 * Approval decisions that outlive one run (a session's), handed to `executeToolCall(s)` as
 * `approvals`. Before asking the responder, the pipeline looks the call up: a stored decision is
 * reused and nobody is asked again. After the responder answers, the pipeline awaits `record`
 * before the body runs, so a decision is durable before its effect. Fails closed: a `find` that
 * throws, or a `record` that rejects, denies the call.
 */
export interface ApprovalMemory {
  /** The decision stored for this call with these exact arguments, or `undefined` to ask. */
  find(key: ApprovalKey): ApprovalResponse | undefined | Promise<ApprovalResponse | undefined>;
  /** Stores a fresh answer of the responder. Only answers are stored: a timeout, an abort or a missing responder is not a decision. */
  record(key: ApprovalKey, response: ApprovalResponse): Promise<void>;
  /**
   * With it, a call that needs approval when the harness has no responder (and no decision is
   * stored) is suspended instead of denied: the pipeline awaits `suspend` (store the request
   * durably, for an answer from another process) and the call settles `AWAITING_APPROVAL` without
   * running. A `suspend` that rejects denies the call. Without it, no responder means a denial.
   */
  suspend?(key: ApprovalKey, request: PendingApprovalRequest): Promise<void>;
}

/** What a suspended call's stored request holds: what the person who answers it later is shown. */
export type PendingApprovalRequest = Omit<ApprovalRequest, 'signal'>;

/** Default time a responder has to answer before the call is denied. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/**
 * Holds the one approval responder and asks it, failing closed: no responder, a responder that
 * throws, answers badly, takes too long or is aborted, all deny the call.
 */
export class ApprovalGate {
  #responder: ResponderHolder | undefined;

  /** Sets the responder. Throws `SLOT_TAKEN` if another owner holds it; the disposer frees it. */
  setResponder(owner: string, respond: ApprovalResponder): Disposer {
    if (typeof respond !== 'function') throw new HarnessError('INVALID_TAP', `approval.setResponder needs a function, got ${typeof respond}.`);
    if (this.#responder) {
      throw new HarnessError('SLOT_TAKEN', `"${owner}" cannot set the approval responder: "${this.#responder.owner}" already holds it.`);
    }
    const holder: ResponderHolder = { owner, respond, pending: new Set(), unloaded: false };
    this.#responder = holder;
    return createDisposer(() => {
      holder.unloaded = true;
      if (this.#responder === holder) this.#responder = undefined;
      for (const controller of holder.pending) controller.abort(new Error('the approver was unloaded'));
    });
  }

  /** The owner of the current responder, if any. */
  get owner(): string | undefined {
    return this.#responder?.owner;
  }

  /**
   * Asks the responder about one call. With `memory`, a decision stored for this call and these
   * exact arguments is reused without asking, and a fresh answer is recorded (awaited) before
   * this resolves. Never rejects: every failure is a denial.
   */
  async request(
    request: Omit<ApprovalRequest, 'signal'>,
    options: { timeoutMs: number; signal: AbortSignal | undefined; memory?: ApprovalMemory | undefined },
  ): Promise<ApprovalOutcome> {
    const { memory } = options;
    if (memory === undefined) return (await this.#ask(request, options)).outcome;

    let key: ApprovalKey;
    let stored: ApprovalResponse | undefined;
    try {
      key = { callId: request.callId, callKey: request.callKey, toolName: request.toolName, argumentsHash: argumentsHash(request.arguments) };
      stored = await awaitPlugin(memory.find(key), options.signal, MEMORY);
    } catch (error) {
      if (error instanceof CallAborted) return CANCELLED;
      return { approved: false, message: `The stored approvals could not be read (${describe(error)}), so the call was denied.` };
    }
    // A reused decision reads exactly as it did when it was given: the model sees no difference.
    if (stored !== undefined) return outcomeOf(stored, request.toolName);

    // Nobody here to answer, and the run can wait: the request is stored for an answer from elsewhere.
    if (this.#responder === undefined && memory.suspend !== undefined) {
      try {
        await awaitPlugin(memory.suspend(key, request), options.signal, MEMORY);
      } catch (error) {
        if (error instanceof CallAborted) return CANCELLED;
        return { approved: false, message: `The approval request could not be stored (${describe(error)}), so the call was denied.` };
      }
      return {
        approved: false,
        suspended: true,
        message: `${request.toolName} is awaiting approval: nobody here could answer, so the request was stored and the call did not run.`,
      };
    }

    const { outcome, answer } = await this.#ask(request, options);
    if (answer === undefined) return outcome;
    try {
      await awaitPlugin(memory.record(key, answer), options.signal, MEMORY);
    } catch (error) {
      if (error instanceof CallAborted) return CANCELLED;
      // An allow that is not stored would be asked again after a restart, for a call that already ran.
      return { approved: false, message: `The approval answer could not be recorded (${describe(error)}), so the call was denied.` };
    }
    return outcome;
  }

  /** Asks the responder. `answer` is set only when it answered: a timeout, abort or failure is not a decision. */
  async #ask(
    request: Omit<ApprovalRequest, 'signal'>,
    options: { timeoutMs: number; signal: AbortSignal | undefined },
  ): Promise<{ outcome: ApprovalOutcome; answer?: ApprovalResponse }> {
    const holder = this.#responder;
    if (holder === undefined) {
      return { outcome: { approved: false, message: `${request.toolName} needs approval and no approver is available, so the call was denied.` } };
    }
    if (options.signal?.aborted) return { outcome: { approved: false, message: 'The call was cancelled while waiting for approval.' } };
    const controller = new AbortController();
    holder.pending.add(controller);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await pTimeout(Promise.resolve().then(() => holder.respond(Object.freeze({ ...request, signal: controller.signal }))), {
        milliseconds: options.timeoutMs,
        signal: controller.signal,
        message: 'approval timed out',
      });
      // An answer from a responder that was unloaded meanwhile is no answer: its owner is gone.
      if (holder.unloaded || this.#responder !== holder) return { outcome: UNLOADED };
      // Anything but a clear allow is a denial; the user's message (if any) is kept for the model.
      const given: ApprovalResponse =
        answer?.decision === 'allow'
          ? { decision: 'allow' }
          : typeof answer?.message === 'string' && answer.message.trim() !== ''
            ? { decision: 'deny', message: answer.message }
            : { decision: 'deny' };
      return { outcome: outcomeOf(given, request.toolName), answer: given };
    } catch (error) {
      if (holder.unloaded) return { outcome: UNLOADED };
      if (controller.signal.aborted) return { outcome: { approved: false, message: 'The call was cancelled while waiting for approval, so it was denied.' } };
      if (error instanceof Error && error.name === 'TimeoutError') {
        return { outcome: { approved: false, message: `No approval came within ${Math.round(options.timeoutMs / 1000)} s, so the call was denied.` } };
      }
      return { outcome: { approved: false, message: `The approval prompt failed (${describe(error)}), so the call was denied.` } };
    } finally {
      holder.pending.delete(controller);
      options.signal?.removeEventListener('abort', onAbort);
      // Tell a prompt still open that its answer is no longer wanted.
      if (!controller.signal.aborted) controller.abort(new Error('approval settled'));
    }
  }
}

const UNLOADED: ApprovalOutcome = Object.freeze({ approved: false, message: 'The approver was unloaded before it answered, so the call was denied.' });
const CANCELLED: ApprovalOutcome = Object.freeze({ approved: false, message: 'The call was cancelled while waiting for approval, so it was denied.' });
const MEMORY = Object.freeze({ stage: 'prepareExecution', name: "the run's approval memory", boundMs: Infinity } as const);

interface ResponderHolder {
  readonly owner: string;
  readonly respond: ApprovalResponder;
  /** Prompts open on this responder: aborted when it is unloaded, so they close and deny at once. */
  readonly pending: Set<AbortController>;
  unloaded: boolean;
}

function outcomeOf(response: ApprovalResponse, toolName: string): ApprovalOutcome {
  if (response.decision === 'allow') return { approved: true };
  const said = typeof response.message === 'string' && response.message.trim() !== '' ? ` The user said: ${response.message}` : '';
  return { approved: false, message: `The user denied this ${toolName} call.${said}` };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
