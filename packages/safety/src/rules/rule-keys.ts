import type { GuardDecision } from '@weir/core';
import { commandRuleKey } from '../commands/command-rule-key.js';
import { networkRuleKey } from '../commands/network-rule-key.js';
import type { RuleSubject } from './rule-subject.js';

/**
 * A key a rule's matcher may use beyond the built-in `tool`, `action`, `tier`, `server` and
 * `path`: the extension point for keys that read a tool's own arguments, such as `command` for a
 * shell tool. `compile` validates the value once, when `safety()` is called (throw an `Error`
 * whose message says what is wrong; it becomes `INVALID_PLUGIN` naming the rule), and returns the
 * matcher. The matcher gets the rule's effect because strictness differs by effect: a deny or
 * ask should match when any part of the call matches (fail closed), an allow only when every part
 * does. It must not throw: return `effect !== 'allow'` for a call it cannot read.
 */
export interface RuleKey {
  readonly name: string;
  compile(value: unknown, effect: GuardDecision): (subject: RuleSubject) => boolean;
  /** How the value reads in a rule's label; default JSON. */
  label?(value: unknown): string;
  /** Work the matchers need done before they run (loading a parser); awaited by the guard. */
  ready?(): Promise<void>;
}

/**
 * The keys beyond the built-in ones, by name. The shell tool's `command` key is added here, in a
 * file of its own (one import and one entry), when it exists; until then a rule using `command`
 * is refused with a message saying so, rather than silently matching every call.
 */
const EXTENSION_KEYS: ReadonlyMap<string, RuleKey> = new Map<string, RuleKey>([
  [commandRuleKey.name, commandRuleKey],
  [networkRuleKey.name, networkRuleKey],
]);

/** Keys that are reserved for an extension that is not there yet, with why. */
const RESERVED_KEYS: ReadonlyMap<string, string> = new Map([['command', 'shell command rules come with the shell tool and are not available yet']]);

/** The extension key named `name`, if any. */
export function extensionKey(name: string): RuleKey | undefined {
  return EXTENSION_KEYS.get(name);
}

/** Why `name` cannot be used yet, when it is reserved and not provided. */
export function reservedKeyReason(name: string): string | undefined {
  return EXTENSION_KEYS.has(name) ? undefined : RESERVED_KEYS.get(name);
}

/**
 * Resolves once every extension key named in `names` is ready to match (rejects when one cannot
 * get ready: the guard then fails closed).
 */
export async function extensionKeysReady(names: Iterable<string>): Promise<void> {
  for (const name of names) await EXTENSION_KEYS.get(name)?.ready?.();
}

/** Names of the extension keys that are available. */
export function extensionKeyNames(): readonly string[] {
  return [...EXTENSION_KEYS.keys()];
}
