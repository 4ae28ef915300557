import type { CacheBreakpoint, CacheOption } from '@weir/core';
import type { WireBlock, WireHistory } from './to-anthropic-messages.js';

/** The most `cache_control` breakpoints one request may carry. */
export const MAX_BREAKPOINTS = 4;

/**
 * Where `'auto'` puts its breakpoints (at most four, in this order): after the tools, after the
 * system prompt, after the newest message (what this step writes), and after the newest message of
 * the step before (what the step before wrote, so this step reads it even when its own suffix is
 * more than the API's 20-block lookback). Each step's marked prefix is the next step's prefix, byte
 * for byte: the history is only appended to, and nothing before a breakpoint depends on the step.
 */
export function autoBreakpoints(history: WireHistory, hasTools: boolean): CacheBreakpoint[] {
  const points: CacheBreakpoint[] = [];
  if (hasTools) points.push('tools');
  if (history.system.length > 0) points.push('system');
  const marked = [...history.lastBlockOf.keys()].filter((index) => history.lastBlockOf[index] !== undefined);
  const newest = marked.at(-1);
  // The newest point of the step before: the last message that is not part of the newest exchange
  // (the user/tool message this step answers, and the assistant message before it).
  const previous = newest === undefined ? undefined : previousStepEnd(history, newest);
  if (previous !== undefined) points.push({ message: previous });
  if (newest !== undefined) points.push({ message: newest });
  return points;
}

/** The history index of the last message before the newest assistant message that was marked, if any. */
function previousStepEnd(history: WireHistory, newest: number): number | undefined {
  const [newestWire] = history.lastBlockOf[newest]!;
  for (let index = newest - 1; index >= 0; index--) {
    const at = history.lastBlockOf[index];
    // Two wire messages back: the user message that the previous request ended with.
    if (at !== undefined && at[0] <= newestWire - 2) return index;
  }
  return undefined;
}

/** What placing breakpoints did: the first `MAX_BREAKPOINTS` placed, the rest counted for a warning. */
export interface PlacedBreakpoints {
  readonly placed: number;
  readonly dropped: number;
}

/**
 * Sets `cache_control` on the blocks the breakpoints name (the last tool, the last system block,
 * the last block of `messages[i]`), in place, at most four; a breakpoint on something absent is
 * skipped. `'off'` places none.
 */
export function placeBreakpoints(cache: CacheOption, history: WireHistory, tools: WireBlock[]): PlacedBreakpoints {
  if (cache === 'off') return { placed: 0, dropped: 0 };
  const points = cache === 'auto' ? autoBreakpoints(history, tools.length > 0) : cache.breakpoints;
  const control = cache !== 'auto' && cache.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const targets = new Set<Record<string, unknown>>();
  let dropped = 0;
  for (const point of points) {
    const block = blockOf(point, history, tools);
    if (block === undefined || targets.has(block)) continue;
    if (targets.size >= MAX_BREAKPOINTS) {
      dropped += 1;
      continue;
    }
    targets.add(block);
  }
  for (const block of targets) block['cache_control'] = control;
  return { placed: targets.size, dropped };
}

function blockOf(point: CacheBreakpoint, history: WireHistory, tools: WireBlock[]): Record<string, unknown> | undefined {
  if (point === 'tools') return tools.at(-1);
  if (point === 'system') return history.system.at(-1);
  const at = history.lastBlockOf[point.message];
  if (at === undefined) return undefined;
  const block = history.messages[at[0]]!.content[at[1]]!;
  // Thinking blocks take no cache_control: the breakpoint goes on the block itself only when it can.
  return block.type === 'thinking' || block.type === 'redacted_thinking' ? undefined : block;
}
