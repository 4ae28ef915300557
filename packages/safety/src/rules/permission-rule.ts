import { createRequire } from 'node:module';
import { posix } from 'node:path';
import { HarnessError, type GuardDecision, type ToolTier } from '@weir/core';
import type Picomatch from 'picomatch';
import { actionCovers, FILE_ACTIONS, isFileAction, type FileAction } from './file-actions.js';
import { literalPath } from './literal-path.js';
import type { PathArgument } from './path-arguments.js';
import { extensionKey, extensionKeyNames, reservedKeyReason } from './rule-keys.js';
import type { RuleSubject } from './rule-subject.js';

type Patterns = string | readonly string[];

/**
 * What a rule matches, by keys; every key given must match (a rule without keys is refused). A
 * bare string or array in place of a matcher names tools, as it always has.
 */
export interface RuleMatcher {
  /** Tool names or picomatch globs (`'write_*'`). */
  readonly tool?: Patterns;
  /** The file action the tool declares: `read` covers read and list, `edit` covers write, edit and delete. */
  readonly action?: FileAction | readonly FileAction[];
  /** The tool's tier. */
  readonly tier?: ToolTier | readonly ToolTier[];
  /** The server a tool was brought from (an MCP server's name), a name or a glob. */
  readonly server?: Patterns;
  /** Paths relative to the workspace root (picomatch globs, dotfiles included). */
  readonly path?: Patterns;
  /** Shell command patterns (`'git status'`, `'rm *'`), matched on the parsed `command` argument (command-rule-key.ts). */
  readonly command?: Patterns;
  /** Hosts a shell call names in its `network` argument (`registry.npmjs.org`, `*.pypi.org`, `*`), judged per host (network-rule-key.ts). */
  readonly network?: Patterns;
}

/** What a rule's effect names: tools (a name, a glob, or an array of them), or a matcher. */
export type RuleTarget = Patterns | RuleMatcher;

/**
 * Allows, asks for or denies the calls a target matches, optionally only when a path argument
 * matches `path` (picomatch globs, relative to the workspace root). Deny beats ask beats allow,
 * whatever the order or specificity of the rules.
 *
 * @example { deny: 'write_file', path: '.env' }
 * @example { deny: { action: 'read', path: '.env' } }
 * @example { ask: { action: 'edit', path: 'src/**' } }
 * @example { ask: { server: 'github' } }
 * @example { allow: { tier: 'read-only' } }
 */
export type PermissionRule =
  | { readonly allow: RuleTarget; readonly path?: Patterns }
  | { readonly ask: RuleTarget; readonly path?: Patterns }
  | { readonly deny: RuleTarget; readonly path?: Patterns };

/** A validated rule, ready to match. */
export interface CompiledRule {
  readonly effect: GuardDecision;
  /** The rule as a person would write it, for reasons and prompts. */
  readonly label: string;
  /** Every key but `path`: tool, action, tier, server and extension keys. */
  readonly matchesCall: (subject: RuleSubject) => boolean;
  /** `undefined` when the rule matches every call of its tools. */
  readonly matchesPath: ((candidate: string) => boolean) | undefined;
}

const EFFECTS: readonly GuardDecision[] = ['allow', 'ask', 'deny'];
const KEYS = new Set<string>([...EFFECTS, 'path']);
const MATCHER_KEYS = new Set<string>(['tool', 'action', 'tier', 'server', 'path']);
const TIER_NAMES: readonly ToolTier[] = ['read-only', 'write', 'dangerous'];

/**
 * Validates and compiles rules. Throws `HarnessError` `INVALID_PLUGIN` on a rule that is not
 * exactly one of allow/ask/deny with a non-empty target, or that has an unknown key (a typo such
 * as `paths` would otherwise silently widen the rule).
 */
export function compileRules(rules: readonly PermissionRule[], where: string): CompiledRule[] {
  if (!Array.isArray(rules)) throw invalid(`${where}: rules must be an array, got ${typeof rules}.`);
  return rules.map((rule, index) => compileRule(rule, `${where}: rules[${index}]`));
}

/** Compiles one rule. Throws `HarnessError` `INVALID_PLUGIN`. */
export function compileRule(rule: PermissionRule, where: string): CompiledRule {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw invalid(`${where} must be an object like { deny: 'write_file', path: '.env' }.`);
  const unknown = Object.keys(rule).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) throw invalid(`${where} has unknown key(s) ${unknown.map((key) => JSON.stringify(key)).join(', ')}; a rule has one of allow, ask, deny and optionally path.`);
  const effects = EFFECTS.filter((effect) => effect in rule);
  if (effects.length !== 1) throw invalid(`${where} must have exactly one of allow, ask or deny, got ${effects.length === 0 ? 'none' : effects.join(' and ')}.`);
  const effect = effects[0]!;
  const target = (rule as Record<string, unknown>)[effect];
  const outerPath = 'path' in rule && rule.path !== undefined ? rule.path : undefined;

  const isMatcher = typeof target === 'object' && target !== null && !Array.isArray(target);
  const matcher: Record<string, unknown> = isMatcher ? (target as Record<string, unknown>) : { tool: target };
  const at = isMatcher ? `${where}.${effect}` : where;
  if (isMatcher) {
    for (const key of Object.keys(matcher)) {
      if (MATCHER_KEYS.has(key) || extensionKey(key) !== undefined) continue;
      const reserved = reservedKeyReason(key);
      if (reserved !== undefined) throw invalid(`${at} uses the key ${JSON.stringify(key)}: ${reserved}.`);
      throw invalid(`${at} has unknown key ${JSON.stringify(key)}; a matcher has ${[...MATCHER_KEYS, ...extensionKeyNames()].join(', ')}.`);
    }
    if (Object.keys(matcher).length === 0) throw invalid(`${at} is empty: name a tool, action, tier, server or path (use '*' for every tool).`);
    if (matcher.path !== undefined && outerPath !== undefined) throw invalid(`${where} gives path twice (in the matcher and beside it); give it once.`);
  }

  const tools = matcher.tool === undefined ? undefined : patterns(matcher.tool, isMatcher ? `${at}.tool` : `${where}.${effect}`);
  const actions = matcher.action === undefined ? undefined : oneOrMore(matcher.action, `${at}.action`, isFileAction, FILE_ACTIONS);
  const tiers = matcher.tier === undefined ? undefined : oneOrMore(matcher.tier, `${at}.tier`, (value): value is ToolTier => (TIER_NAMES as readonly unknown[]).includes(value), TIER_NAMES);
  const servers = matcher.server === undefined ? undefined : patterns(matcher.server, `${at}.server`);
  const pathValue = matcher.path ?? outerPath;
  // Patterns are normalised like paths: one pasted in decomposed form (as macOS gives file names)
  // must match the composed spelling the candidates are folded to.
  const paths = pathValue === undefined ? undefined : patterns(pathValue, `${matcher.path !== undefined ? at : where}.path`).map((pattern) => pattern.normalize('NFC'));
  const extensions = Object.keys(matcher)
    .filter((key) => !MATCHER_KEYS.has(key))
    .map((key) => {
      const definition = extensionKey(key)!;
      try {
        return definition.compile(matcher[key], effect);
      } catch (error) {
        throw invalid(`${at}.${key}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });

  const matchesTool = tools === undefined ? undefined : picomatch([...tools]);
  const matchesServer = servers === undefined ? undefined : picomatch([...servers]);
  const matchesCall = (subject: RuleSubject): boolean => {
    if (matchesTool !== undefined && !matchesTool(subject.toolName)) return false;
    if (tiers !== undefined && !tiers.includes(subject.tier)) return false;
    if (matchesServer !== undefined && (subject.server === undefined || !matchesServer(subject.server))) return false;
    if (actions !== undefined && !actionMatches(actions, effect, subject)) return false;
    return extensions.every((matches) => matches(subject));
  };
  // Deny and ask fold case: on a case-insensitive volume `.ENV` is `.env`; on a case-sensitive
  // one the cost is an extra prompt. Allow never folds: it must not widen.
  const pathOptions = { dot: true, nocase: effect !== 'allow' };
  return Object.freeze({
    effect,
    label: label(rule, effect),
    matchesCall,
    matchesPath: paths === undefined ? undefined : picomatch([...paths], pathOptions),
  });
}

let loaded: typeof Picomatch | undefined;

/** picomatch, loaded when the first rule is compiled: importing safety must not pay for it (cold start). */
function picomatch(glob: string[], options?: Picomatch.PicomatchOptions): Picomatch.Matcher {
  loaded ??= createRequire(import.meta.url)('picomatch') as typeof Picomatch;
  return loaded(glob, options);
}

/**
 * A tool that declares its action is matched on it. One that declares none may do anything its
 * tier allows, so a deny or ask on an action covers it when the tier could perform it (a read-only
 * tool reads or lists; any other may do all), and an allow never does (fail closed).
 */
function actionMatches(actions: readonly FileAction[], effect: GuardDecision, subject: RuleSubject): boolean {
  if (subject.action !== undefined) return actions.some((action) => actionCovers(action, subject.action!));
  if (effect === 'allow') return false;
  const possible: readonly FileAction[] = subject.tier === 'read-only' ? ['read', 'list'] : FILE_ACTIONS;
  return actions.some((action) => possible.some((candidate) => actionCovers(action, candidate)));
}

/**
 * True when `rule` applies to this call. A rule without `path` applies to every call it matches.
 * With `path`, deny and ask apply when any form of any path matches (the literal value, its
 * lexical normalisation, or the canonical path), and also when a path argument is missing (and
 * has no default) or is not a string: what cannot be checked is treated as matching (fail
 * closed). Allow applies only when every path has a canonical form and both the literal and the
 * canonical path match: a path the sandbox refused, or a call with no sandbox, is never allowed
 * by a path rule.
 */
export function ruleMatches(rule: CompiledRule, subject: RuleSubject): boolean {
  if (!rule.matchesCall(subject)) return false;
  const matchesPath = rule.matchesPath;
  if (matchesPath === undefined) return true;
  const paths = subject.paths;
  if (rule.effect === 'allow') {
    return paths.length > 0 && paths.every((item) => item.literal !== undefined && item.canonical !== undefined && matchesPath(literalPath(item.literal)) && matchesPath(item.canonical.relativePath));
  }
  return paths.some((item) => item.literal === undefined || strictCandidates(item).some(matchesPath));
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
  // NFD and NFC spellings name the same file on some volumes (docs/reliability.md 1.2 row 38).
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

function oneOrMore<T extends string>(value: unknown, where: string, is: (item: unknown) => item is T, names: readonly T[]): readonly T[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every(is)) throw invalid(`${where} must be one of ${names.map((name) => JSON.stringify(name)).join(', ')} (or an array of them), got ${JSON.stringify(value)}.`);
  return Object.freeze([...list]);
}

/** The rule as written: `{ deny: "write_file", path: ".env" }`, `{ ask: { server: "github" } }`. */
function label(rule: PermissionRule, effect: GuardDecision): string {
  const show = (value: unknown): string => {
    if (Array.isArray(value)) return value.length === 1 ? JSON.stringify(value[0]) : JSON.stringify(value);
    if (typeof value === 'object' && value !== null) {
      return `{ ${Object.entries(value)
        .map(([key, item]) => `${key}: ${show(item)}`)
        .join(', ')} }`;
    }
    return JSON.stringify(value);
  };
  const record = rule as Record<string, unknown>;
  return `{ ${effect}: ${show(record[effect])}${record.path === undefined ? '' : `, path: ${show(record.path)}`} }`;
}

function invalid(message: string): HarnessError {
  return new HarnessError('INVALID_PLUGIN', message);
}
