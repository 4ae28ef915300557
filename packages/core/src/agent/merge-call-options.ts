import type { ModelCallOptions } from './model.js';

const NAMES = ['maxOutputTokens', 'temperature', 'reasoning', 'toolChoice', 'cache'] as const;

/** A step's options over the agent's, field by field; `undefined` when neither sets any. */
export function mergeCallOptions(base: ModelCallOptions | undefined, step: ModelCallOptions | undefined): ModelCallOptions | undefined {
  if (step === undefined) return base;
  if (base === undefined) return step;
  return Object.freeze({ ...base, ...step });
}

/**
 * Throws `TypeError` naming the first option that is not one: a programmer mistake (`where` says
 * whose: `createAgent: modelOptions` or `prepareStep options`).
 */
export function checkCallOptions(options: unknown, where: string): ModelCallOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${where} must be an object.`);
  const o = options as Record<string, unknown>;
  const unknown = Object.keys(o).find((key) => !(NAMES as readonly string[]).includes(key));
  if (unknown !== undefined) throw new TypeError(`${where} has an unknown option "${unknown}" (known: ${NAMES.join(', ')}).`);
  const count = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;
  if (o.maxOutputTokens !== undefined && !count(o.maxOutputTokens)) throw new TypeError(`${where}.maxOutputTokens must be a positive integer, got ${String(o.maxOutputTokens)}.`);
  if (o.temperature !== undefined && !(typeof o.temperature === 'number' && o.temperature >= 0 && Number.isFinite(o.temperature))) throw new TypeError(`${where}.temperature must be a number >= 0, got ${String(o.temperature)}.`);
  const r = o.reasoning as { budgetTokens?: unknown } | string | undefined;
  if (r !== undefined && !(['off', 'low', 'medium', 'high'].includes(r as string) || (typeof r === 'object' && r !== null && count(r.budgetTokens)))) {
    throw new TypeError(`${where}.reasoning must be 'off', 'low', 'medium', 'high' or { budgetTokens: a positive integer }.`);
  }
  const t = o.toolChoice as { name?: unknown } | string | undefined;
  if (t !== undefined && !(['auto', 'none', 'required'].includes(t as string) || (typeof t === 'object' && t !== null && typeof t.name === 'string' && t.name !== ''))) {
    throw new TypeError(`${where}.toolChoice must be 'auto', 'none', 'required' or { name: a tool name }.`);
  }
  const c = o.cache as { breakpoints?: unknown; ttl?: unknown } | string | undefined;
  if (c !== undefined && !(c === 'auto' || c === 'off' || (typeof c === 'object' && c !== null && Array.isArray(c.breakpoints) && c.breakpoints.every(isBreakpoint) && (c.ttl === undefined || c.ttl === '5m' || c.ttl === '1h')))) {
    throw new TypeError(`${where}.cache must be 'auto', 'off' or { breakpoints: ('tools' | 'system' | { message: index })[], ttl?: '5m' | '1h' }.`);
  }
  return options as ModelCallOptions;
}

function isBreakpoint(value: unknown): boolean {
  if (value === 'tools' || value === 'system') return true;
  const index = (value as { message?: unknown } | null)?.message;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0;
}
