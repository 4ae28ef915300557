import type { Content, TurnOptions, TurnResult } from '@weir/core';
import type { StartedWeir } from './start-weir.js';

/** What a turn a UserPromptSubmit hook blocked gives instead of a result: the hook's reason. */
export interface BlockedPrompt {
  readonly blocked: string;
}

/**
 * A turn between the hooks' events (`runTurnWithHooks`): a prompt a UserPromptSubmit hook blocks
 * never reaches the model (`{ blocked }`, and a status line says why); a Stop hook's block sends
 * the agent on, at most three times, and a status line says each.
 */
export async function hookedTurn(weir: StartedWeir, content: Content, options: TurnOptions, say: (line: string) => void): Promise<TurnResult | BlockedPrompt> {
  const { runTurnWithHooks } = await import('@weir/hooks');
  const turn = await runTurnWithHooks(weir.agent, content, weir.composed.hooks.events, { turn: options });
  if (turn.blockedPrompt !== undefined) {
    say(`[hook] the prompt was blocked: ${turn.blockedPrompt}`);
    return { blocked: turn.blockedPrompt };
  }
  if (turn.stopBlocks > 0) say(`[hook] Stop hooks sent the agent on ${turn.stopBlocks} time${turn.stopBlocks === 1 ? '' : 's'}${turn.stopBoundReached ? ' (the bound: it stops now)' : ''}`);
  return turn.result!;
}
