import type { CompactOptions, LanguageModel } from '@weir/core';

/** The share of the context window past which the conversation is compacted before a model call, unless the config says otherwise. */
export const DEFAULT_AUTO_COMPACT = 0.8;

/** The config's `"compact"` key, checked. */
export interface CompactSettings {
  /** The share of the context window (0 < share <= 1) at which compaction runs, `false` for never; `undefined`: the default. */
  readonly auto: number | false | undefined;
  /** The model's context window in tokens, when the model does not say (or says wrong). */
  readonly contextWindow: number | undefined;
}

/** What the CLI compacts at: the agent's `compact` option, and the words `/model` shows. */
export interface AutoCompaction {
  readonly options: CompactOptions | undefined;
  readonly description: string;
}

/**
 * Automatic compaction for the agent, from the config's `"compact"` (`undefined` without a config): at `auto` of the context window (`compact.contextWindow`,
 * else the model's metadata). Off when the config turns it off, or when no window is known: weir
 * would have to guess one, and a wrong guess compacts a large window far too early.
 */
export function autoCompaction(settings: CompactSettings | undefined, model: LanguageModel): AutoCompaction {
  const share = settings?.auto ?? DEFAULT_AUTO_COMPACT;
  const window = settings?.contextWindow ?? model.metadata?.contextWindow;
  if (share === false) return { options: undefined, description: 'automatic compaction is off ("compact": { "auto": false }); /compact compacts' };
  if (window === undefined) return { options: undefined, description: `automatic compaction is off: ${model.id} does not say its context window (set "compact": { "contextWindow": <tokens> } in weir.config.json); /compact compacts` };
  const maxTokens = Math.max(1, Math.floor(window * share));
  return { options: { maxTokens }, description: `automatic compaction at ${maxTokens} tokens (${Math.round(share * 100)}% of a ${window}-token context window)` };
}
