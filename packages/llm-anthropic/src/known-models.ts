import type { ModelMetadata } from '@weir/core';

// Anthropic's published list prices (USD per million tokens) and limits, as of 2026-12: cache
// writes (5-minute) bill at 1.25x input, cache reads at 0.1x. Longest prefix wins; an unknown
// model states nothing (give `metadata` yourself).
const TABLE: readonly (readonly [prefix: string, metadata: ModelMetadata])[] = [
  ['claude-opus-4-5', { contextWindow: 200_000, maxOutputTokens: 64_000, prices: price(5, 25) }],
  ['claude-opus-4', { contextWindow: 200_000, maxOutputTokens: 32_000, prices: price(15, 75) }],
  ['claude-sonnet-4', { contextWindow: 200_000, maxOutputTokens: 64_000, prices: price(3, 15) }],
  ['claude-haiku-4', { contextWindow: 200_000, maxOutputTokens: 64_000, prices: price(1, 5) }],
  ['claude-3-7-sonnet', { contextWindow: 200_000, maxOutputTokens: 64_000, prices: price(3, 15) }],
  ['claude-3-5-haiku', { contextWindow: 200_000, maxOutputTokens: 8_192, prices: price(0.8, 4) }],
  ['claude-3-5-sonnet', { contextWindow: 200_000, maxOutputTokens: 8_192, prices: price(3, 15) }],
];

function price(input: number, output: number): NonNullable<ModelMetadata['prices']> {
  return { inputPerMillion: input, outputPerMillion: output, cacheReadPerMillion: input / 10, cacheWritePerMillion: input * 1.25 };
}

/** What weir knows of a Claude model by its id, or `undefined`. */
export function knownMetadata(model: string): ModelMetadata | undefined {
  let best: readonly [string, ModelMetadata] | undefined;
  for (const entry of TABLE) if (model.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) best = entry;
  return best?.[1];
}
