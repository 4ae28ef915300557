import pTimeout from 'p-timeout';
import type { ToolArguments } from './call-context.js';
import { createDisposer, type Disposer } from './disposer.js';
import type { ToolTier } from './define-tool.js';
import { HarnessError } from './harness-error.js';

/** What a person (or a policy) is asked. The arguments are the exact, final, frozen ones the body will get. */
export interface ApprovalRequest {
  readonly callId: string;
  readonly toolName: string;
  readonly tier: ToolTier;
  readonly arguments: ToolArguments;
  /** Why approval is needed (the asking guard's reason). */
  readonly reason: string | undefined;
  /** Aborts when the call is cancelled or the answer took too long: close the prompt. */
  readonly signal: AbortSignal;
}

export interface ApprovalResponse {
  readonly decision: 'allow' | 'deny';
  /** With a denial: what the model is told. */
  readonly message?: string;
}

export type ApprovalResponder = (request: ApprovalRequest) => ApprovalResponse | Promise<ApprovalResponse>;

/** The answer the pipeline acts on. Anything but a clear `allow` is a denial. */
export type ApprovalOutcome = { readonly approved: true } | { readonly approved: false; readonly message: string };

/** Default time a responder has to answer before the call is denied. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/**
 * Holds the one approval responder and asks it, failing closed: no responder, a responder that
 * throws, answers badly, takes too long or is aborted, all deny the call.
 */
export class ApprovalGate {
  #responder: { readonly owner: string; readonly respond: ApprovalResponder } | undefined;

  /** Sets the responder. Throws `SLOT_TAKEN` if another owner holds it; the disposer frees it. */
  setResponder(owner: string, respond: ApprovalResponder): Disposer {
    if (typeof respond !== 'function') throw new HarnessError('INVALID_TAP', `approval.setResponder needs a function, got ${typeof respond}.`);
    if (this.#responder) {
      throw new HarnessError('SLOT_TAKEN', `"${owner}" cannot set the approval responder: "${this.#responder.owner}" already holds it.`);
    }
    const holder = { owner, respond };
    this.#responder = holder;
    return createDisposer(() => {
      if (this.#responder === holder) this.#responder = undefined;
    });
  }

  /** The owner of the current responder, if any. */
  get owner(): string | undefined {
    return this.#responder?.owner;
  }

  async request(request: Omit<ApprovalRequest, 'signal'>, options: { timeoutMs: number; signal: AbortSignal | undefined }): Promise<ApprovalOutcome> {
    const holder = this.#responder;
    if (holder === undefined) {
      return { approved: false, message: `${request.toolName} needs approval and no approver is available, so the call was denied.` };
    }
    if (options.signal?.aborted) return { approved: false, message: 'The call was cancelled while waiting for approval.' };
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await pTimeout(Promise.resolve().then(() => holder.respond({ ...request, signal: controller.signal })), {
        milliseconds: options.timeoutMs,
        signal: controller.signal,
        message: 'approval timed out',
      });
      if (answer?.decision === 'allow') return { approved: true };
      const said = typeof answer?.message === 'string' && answer.message.trim() !== '' ? ` The user said: ${answer.message}` : '';
      return { approved: false, message: `The user denied this ${request.toolName} call.${said}` };
    } catch (error) {
      if (controller.signal.aborted) return { approved: false, message: 'The call was cancelled while waiting for approval, so it was denied.' };
      if (error instanceof Error && error.name === 'TimeoutError') {
        return { approved: false, message: `No approval came within ${Math.round(options.timeoutMs / 1000)} s, so the call was denied.` };
      }
      return { approved: false, message: `The approval prompt failed (${error instanceof Error ? error.message : String(error)}), so the call was denied.` };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      // Tell a prompt still open that its answer is no longer wanted.
      if (!controller.signal.aborted) controller.abort(new Error('approval settled'));
    }
  }
}
