import type { AssistantPart, ModelToolCall, ProviderData } from './model.js';

/** What `content`, `reasoning` and `toolCalls` are for a list of parts. */
export interface PartsSummary {
  /** Every text part, in order, joined with nothing between. */
  readonly text: string;
  /** Every reasoning part's text, in order, joined with nothing between; `undefined` when there is none. */
  readonly reasoning: string | undefined;
  /** The tool-call parts' calls, in order. */
  readonly toolCalls: readonly ModelToolCall[];
}

/**
 * The derived fields of an answer given as parts: what an adapter puts in `text`, `reasoning` and
 * `toolCalls` beside `parts`, so every reader that knows only those fields reads the same answer.
 */
export function partsSummary(parts: readonly AssistantPart[]): PartsSummary {
  let text = '';
  let reasoning: string | undefined;
  const toolCalls: ModelToolCall[] = [];
  for (const part of parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') reasoning = (reasoning ?? '') + part.text;
    else toolCalls.push(part.call);
  }
  return { text, reasoning: reasoning === '' ? undefined : reasoning, toolCalls };
}

/**
 * The parts with their tool calls replaced, by position, by `calls` (the loop's normalized calls:
 * unique ids, keys). Returns `parts` itself when they are already those calls. `calls` must be as
 * many as the tool-call parts; extra calls (an adapter's parts that missed some) are appended.
 */
export function withToolCalls(parts: readonly AssistantPart[], calls: readonly ModelToolCall[]): readonly AssistantPart[] {
  let next = 0;
  let changed = false;
  const out: AssistantPart[] = [];
  for (const part of parts) {
    if (part.type !== 'tool-call') out.push(part);
    else if (next < calls.length) {
      const call = calls[next++]!;
      if (call !== part.call) changed = true;
      out.push(call === part.call ? part : Object.freeze({ type: 'tool-call', call }));
    } else changed = true;
  }
  for (; next < calls.length; next++) {
    changed = true;
    out.push(Object.freeze({ type: 'tool-call', call: calls[next]! }));
  }
  return changed ? Object.freeze(out) : parts;
}

/** The data `provider` attached, or `undefined`: what an adapter may send back (never another provider's). */
export function ownProviderData(data: ProviderData | undefined, provider: string): Readonly<Record<string, unknown>> | undefined {
  return data === undefined || !Object.hasOwn(data, provider) ? undefined : data[provider];
}
