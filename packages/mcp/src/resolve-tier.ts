import type { ToolTier } from '@weir/core';

/** A tier per server tool name (its own name, not the namespaced one); `'*'` for every other tool. */
export type McpTierMap = Readonly<Record<string, ToolTier>>;

const TIERS: ReadonlySet<string> = new Set<ToolTier>(['read-only', 'write', 'dangerous']);

/**
 * The tier of a server's tool: what the user mapped for it, else what they mapped for `'*'`, else
 * `dangerous`. The server's own annotations (`readOnlyHint`, ...) never enter here: a server saying
 * a tool is harmless is a claim, not a policy. They are shown to the model in the description.
 */
export function resolveTier(tiers: McpTierMap | undefined, tool: string): ToolTier {
  if (tiers === undefined) return 'dangerous';
  if (Object.hasOwn(tiers, tool)) return tiers[tool]!;
  if (Object.hasOwn(tiers, '*')) return tiers['*']!;
  return 'dangerous';
}

/**
 * The tier map as it is now, copied (frozen, no prototype) and then checked: the caller's object is
 * read once, so changing it later (or a getter answering differently each time) cannot lower a
 * tier at a later refresh. Throws a `TypeError` naming the entry, like `assertTierMap`.
 */
export function copyTierMap(tiers: unknown, where: string): McpTierMap | undefined {
  if (tiers === undefined) return undefined;
  assertTierMap(tiers, where);
  const copy: Record<string, ToolTier> = Object.create(null);
  for (const [tool, tier] of Object.entries(tiers)) copy[tool] = tier;
  assertTierMap(copy, where);
  return Object.freeze(copy);
}

/** Throws a `TypeError` naming the entry when a tier map has something else than the three tiers. */
export function assertTierMap(tiers: unknown, where: string): asserts tiers is McpTierMap | undefined {
  if (tiers === undefined) return;
  if (typeof tiers !== 'object' || tiers === null || Array.isArray(tiers)) {
    throw new TypeError(`${where}: tiers must be an object mapping tool names to "read-only", "write" or "dangerous".`);
  }
  for (const [tool, tier] of Object.entries(tiers)) {
    if (!TIERS.has(tier as string)) {
      throw new TypeError(`${where}: tiers[${JSON.stringify(tool)}] must be "read-only", "write" or "dangerous", got ${JSON.stringify(tier)}.`);
    }
  }
}
