import { textOfParts, type Agent, type Content, type TurnOptions, type TurnResult } from '@weir/core';
import type { HookEvents } from './command-hooks.js';

/** How many times Stop hooks may send the agent back to work in one turn. */
export const DEFAULT_MAX_STOP_BLOCKS = 3;

export interface TurnWithHooksOptions {
  readonly turn?: TurnOptions;
  /** Default 3: after that many blocks the turn ends anyway, and the result says so. */
  readonly maxStopBlocks?: number;
}

/** A turn, with what the hooks did to it. */
export interface HookedTurn {
  /** `undefined` when a UserPromptSubmit hook blocked the prompt (the model never saw it). */
  readonly result: TurnResult | undefined;
  /** Why the prompt was blocked. */
  readonly blockedPrompt: string | undefined;
  /** How many times Stop hooks sent the agent back, and whether the bound ended it. */
  readonly stopBlocks: number;
  readonly stopBoundReached: boolean;
}

/**
 * One agent turn between its hooks: `UserPromptSubmit` first (a block ends it before the model is
 * asked; context is appended to the prompt), then the turn, then `Stop`: a block makes the agent go
 * on with the hook's reason as the next message, at most `maxStopBlocks` times, with
 * `stop_hook_active` true after the first. An aborted turn is not offered to Stop hooks. A prompt
 * of parts (an MCP prompt's image or resource) reaches the hooks as its text (`textOfParts`), and
 * the model whole, the hooks' context as one more text part.
 */
export async function runTurnWithHooks(agent: Agent, content: Content, events: HookEvents, options: TurnWithHooksOptions = {}): Promise<HookedTurn> {
  // A prompt of parts (an editor's attached file, an image) is offered to the hooks as its text, so
  // attaching something never takes a prompt past them.
  const prompt = await events.userPromptSubmit(typeof content === 'string' ? content : textOfParts(content));
  if (prompt.blocked) return { result: undefined, blockedPrompt: prompt.reason, stopBlocks: 0, stopBoundReached: false };
  const max = options.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS;
  let result = await agent.turn(withContext(content, prompt.context), options.turn);
  let blocks = 0;
  while (result.stopReason !== 'aborted') {
    const stop = await events.stop(blocks > 0, result.text);
    if (!stop.blocked) return { result, blockedPrompt: undefined, stopBlocks: blocks, stopBoundReached: false };
    if (blocks >= max) return { result, blockedPrompt: undefined, stopBlocks: blocks, stopBoundReached: true };
    blocks += 1;
    result = await agent.turn(stop.reason ?? 'A Stop hook asked you to go on.', options.turn);
  }
  return { result, blockedPrompt: undefined, stopBlocks: blocks, stopBoundReached: false };
}

/** The prompt with a hook's added context after it. */
function withContext(content: Content, context: string | undefined): Content {
  if (context === undefined) return content;
  return typeof content === 'string' ? `${content}\n\n${context}` : [...content, { type: 'text', text: context }];
}
