import type { StopReason as AcpStopReason } from '@agentclientprotocol/sdk';
import type { StopReason } from '@weir/core';

/**
 * ACP's stop reason for a weir turn's. ACP has no "error" and no "budget": the model's own `error`
 * finish and a structured answer that failed end the turn (`end_turn`, the text says what came),
 * a spent budget is a request limit like the step budget.
 */
export function acpStopReason(reason: StopReason): AcpStopReason {
  switch (reason) {
    case 'aborted':
      return 'cancelled';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    case 'max_steps':
    case 'budget_exhausted':
      return 'max_turn_requests';
    case 'stop':
    case 'error':
    case 'output_invalid':
    case 'awaiting_approval':
      return 'end_turn';
  }
}
