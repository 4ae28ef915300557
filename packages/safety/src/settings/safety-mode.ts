import type { GuardDecision, ToolTier } from '@weir/core';

/**
 * How much runs without asking, by tool tier:
 *
 * | mode | read-only | write | dangerous |
 * | --- | --- | --- | --- |
 * | `read-only` | runs | denied | denied |
 * | `ask` (default) | runs | asks | asks |
 * | `auto` | runs | runs | asks |
 * | `allow-all-unsafe` | runs | runs | runs |
 *
 * Rules and protected paths still apply in every mode; see `safety()`.
 */
export type SafetyMode = 'read-only' | 'ask' | 'auto' | 'allow-all-unsafe';

/** The modes, in order from strictest to most permissive. */
export const SAFETY_MODES: readonly SafetyMode[] = Object.freeze(['read-only', 'ask', 'auto', 'allow-all-unsafe']);

const TABLE: Readonly<Record<SafetyMode, Readonly<Record<ToolTier, GuardDecision>>>> = Object.freeze({
  'read-only': Object.freeze({ 'read-only': 'allow', write: 'deny', dangerous: 'deny' }),
  ask: Object.freeze({ 'read-only': 'allow', write: 'ask', dangerous: 'ask' }),
  auto: Object.freeze({ 'read-only': 'allow', write: 'allow', dangerous: 'ask' }),
  'allow-all-unsafe': Object.freeze({ 'read-only': 'allow', write: 'allow', dangerous: 'allow' }),
});

/** What `mode` says about a tool of `tier`, before any rule. An unknown tier is treated as dangerous. */
export function modeDecision(mode: SafetyMode, tier: ToolTier): GuardDecision {
  return TABLE[mode][tier] ?? TABLE[mode].dangerous;
}

/** True when `value` names a mode. */
export function isSafetyMode(value: unknown): value is SafetyMode {
  return typeof value === 'string' && (SAFETY_MODES as readonly string[]).includes(value);
}
