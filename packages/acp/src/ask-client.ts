import type { AgentContext, PermissionOption } from '@agentclientprotocol/sdk';
import type { AcpApprover, PermissionAnswer } from './acp-host.js';
import { toolCallView } from './tool-call-view.js';

/** How long the editor has to answer a permission request before the call is denied. */
export const DEFAULT_PERMISSION_TIMEOUT_MS = 120_000;

const ALLOW_ONCE = 'allow-once';
const ALLOW_SESSION = 'allow-session';
const REJECT = 'reject';

/** What `askClient` needs to reach the editor. */
export interface AskClientOptions {
  readonly client: () => AgentContext;
  /** The ACP session the calls belong to (known once the weir session is open). */
  readonly sessionId: () => string;
  readonly cwd: string;
  readonly timeoutMs?: number;
}

/**
 * weir's approver for an ACP session: each `ask` is a `session/request_permission` about the call
 * the editor already shows (same `toolCallId`), with the options weir offers: allow once, allow
 * always (a grant for this session, offered when safety offers one) and reject. A rejection, a
 * cancelled request, a failed one or no answer within the deadline denies, and the model reads
 * why; the request is withdrawn (`$/cancel_request`) when the call is cancelled or times out.
 */
export function askClient(options: AskClientOptions): AcpApprover {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PERMISSION_TIMEOUT_MS;
  return async (request) => {
    const view = toolCallView(request.toolName, request.arguments, options.cwd);
    const choices: PermissionOption[] = [{ optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' }];
    if (request.session !== undefined) choices.push({ optionId: ALLOW_SESSION, name: `Allow always in this session (${request.session.description})`, kind: 'allow_always' });
    choices.push({ optionId: REJECT, name: 'Reject', kind: 'reject_once' });
    const deadline = AbortSignal.timeout(timeoutMs);
    const withdraw = AbortSignal.any([request.signal, deadline]);
    let answer: PermissionAnswer;
    try {
      const response = await options.client().request(
        'session/request_permission',
        {
          sessionId: options.sessionId(),
          toolCall: { toolCallId: request.callKey, title: view.title, kind: view.kind, status: 'pending', locations: view.locations, rawInput: request.arguments },
          options: choices,
        },
        { cancellationSignal: withdraw, stopWaitingOnCancel: true },
      );
      const outcome = response.outcome;
      if (outcome.outcome === 'selected' && outcome.optionId === ALLOW_ONCE) answer = { decision: 'allow', scope: 'once' };
      else if (outcome.outcome === 'selected' && outcome.optionId === ALLOW_SESSION && request.session !== undefined) answer = { decision: 'allow', scope: 'session' };
      else if (outcome.outcome === 'selected') answer = { decision: 'deny', message: `The user rejected this ${request.toolName} call in the editor. Do not retry it; ask what they want instead.` };
      else answer = { decision: 'deny', message: `The permission request for this ${request.toolName} call was cancelled.` };
    } catch {
      answer = deadline.aborted
        ? { decision: 'deny', message: `Nobody answered the permission request for this ${request.toolName} call within ${Math.round(timeoutMs / 1000)} s, so it was denied.` }
        : { decision: 'deny', message: `The permission request for this ${request.toolName} call failed or was withdrawn, so it was denied.` };
    }
    return answer;
  };
}
