import { posix } from 'node:path';
import { HarnessError, type GuardDecision } from '@weir/core';
import picomatch from 'picomatch';
import { literalPath } from './literal-path.js';
import type { PathArgument } from './path-arguments.js';

type Patterns = string | readonly string[];

/**
 * Allows, asks for or denies the tools whose names match (a name, or a picomatch glob such as
 * `'*'`), optionally only when a path argument matches `path` (picomatch globs, relative to the
 * workspace root). Deny beats ask beats allow, whatever the order or specificity of the rules.
 *
 * @example { deny: 'write_file', path: '.env' }
 * @example { allow: 'read_file', path: 'src/**' }
 * @example { ask: '*', path: 'package.json' }
 */
export type PermissionRule =
  | { readonly allow: Patterns; readonly path?: Patterns }
  | { readonly ask: Patterns; readonly path?: Patterns }
  | { readonly deny: Patterns; readonly path?: Patterns };

/** A validated rule, ready to match. */
export interface CompiledRule {
  readonly effect: GuardDecision;
  /** The rule as a person would write it, for reasons and prompts. */
  readonly label: string;
  readonly matchesTool: (toolName: string) => boolean;
  /** `undefined` when the rule matches every call of its tools. */
  readonly matchesPath: ((candidate: string) => boolean) | undefined;
}

const EFFECTS: readonly GuardDecision[] = ['allow', 'ask', 'deny'];
const KEYS = new Set<string>([...EFFECTS, 'path']);

/**
 * Validates and compiles rules. Throws `HarnessError` `INVALID_PLUGIN` on a rule that is not
 * exactly one of allow/ask/deny with non-empty patterns, or that has an unknown key (a typo such
 * as `paths` would otherwise silently widen the rule).
 */
export function compileRules(rules: readonly PermissionRule[], where: string): CompiledRule[] {
  if (!Array.isArray(rules)) throw invalid(`${where}: rules must be an array, got ${typeof rules}.`);
  return rules.map((rule, index) => compileRule(rule, `${where}: rules[${index}]`));
}

/** Compiles a rule whose shape is already known to be right (the built-in protected paths). */
export function compileRule(rule: PermissionRule, where: string): CompiledRule {
  if (typeof rule !== 'object' || rule === null) throw invalid(`${where} must be an object like { deny: 'write_file', path: '.env' }.`);
  const unknown = Object.keys(rule).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) throw invalid(`${where} has unknown key(s) ${unknown.map((key) => JSON.stringify(key)).join(', ')}; a rule has one of allow, ask, deny and optionally path.`);
  const effects = EFFECTS.filter((effect) => effect in rule);
  if (effects.length !== 1) throw invalid(`${where} must have exactly one of allow, ask or deny, got ${effects.length === 0 ? 'none' : effects.join(' and ')}.`);
  const effect = effects[0]!;
  const tools = patterns((rule as Record<string, unknown>)[effect], `${where}.${effect}`);
  // Patterns are normalised like paths: one pasted in decomposed form (as macOS gives file names)
  // must match the composed spelling the candidates are folded to.
  const paths = 'path' in rule && rule.path !== undefined ? patterns(rule.path, `${where}.path`).map((pattern) => pattern.normalize('NFC')) : undefined;
  // Deny and ask fold case: on a case-insensitive volume `.ENV` is `.env` (RELIABILITY 1.2 rows 42, 44);
  // on a case-sensitive one the cost is an extra prompt. Allow never folds: it must not widen.
  const pathOptions = { dot: true, nocase: effect !== 'allow' };
  return Object.freeze({
    effect,
    label: label(effect, tools, paths),
    matchesTool: picomatch([...tools]),
    matchesPath: paths === undefined ? undefined : picomatch([...paths], pathOptions),
  });
}

/**
 * True when `rule` applies to this call. A rule without `path` applies to every call of its tools.
 * With `path`, deny and ask apply when any form of any path matches (the literal value, its lexical
 * normalisation, or the canonical path); allow applies only when every path has a canonical form
 * and both the literal and the canonical path match: a path the sandbox refused, or a call with no
 * sandbox, is never allowed by a path rule.
 */
export function ruleMatches(rule: CompiledRule, toolName: string, paths: readonly PathArgument[]): boolean {
  if (!rule.matchesTool(toolName)) return false;
  const matchesPath = rule.matchesPath;
  if (matchesPath === undefined) return true;
  if (rule.effect === 'allow') {
    return paths.length > 0 && paths.every((item) => item.literal !== undefined && item.canonical !== undefined && matchesPath(literalPath(item.literal)) && matchesPath(item.canonical.relativePath));
  }
  return paths.some((item) => strictCandidates(item).some(matchesPath));
}

/** Every spelling a deny or ask rule is checked against: any one matching is enough. */
function strictCandidates(item: PathArgument): string[] {
  const forms = new Set<string>();
  if (item.literal !== undefined) {
    forms.add(item.literal);
    forms.add(literalPath(item.literal));
    forms.add(literalPath(posix.normalize(item.literal)));
  }
  if (item.canonical !== undefined) {
    forms.add(item.canonical.relativePath);
    forms.add(item.canonical.path);
  }
  // NFD and NFC spellings name the same file on some volumes (RELIABILITY 1.2 row 38).
  for (const form of [...forms]) forms.add(form.normalize('NFC'));
  return [...forms];
}


function patterns(value: unknown, where: string): readonly string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (list === undefined || list.length === 0 || !list.every((item) => typeof item === 'string' && item.trim() !== '')) {
    throw invalid(`${where} must be a non-empty string or a non-empty array of them, got ${JSON.stringify(value)}.`);
  }
  return Object.freeze([...list]);
}

function label(effect: GuardDecision, tools: readonly string[], paths: readonly string[] | undefined): string {
  const show = (list: readonly string[]) => (list.length === 1 ? JSON.stringify(list[0]) : JSON.stringify(list));
  return `{ ${effect}: ${show(tools)}${paths === undefined ? '' : `, path: ${show(paths)}`} }`;
}

function invalid(message: string): HarnessError {
  return new HarnessError('INVALID_PLUGIN', message);
}
