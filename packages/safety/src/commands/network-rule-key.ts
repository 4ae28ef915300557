import { domainToASCII } from 'node:url';
import type { GuardDecision } from '@weir/core';
import type { RuleSubject } from '../rules/rule-subject.js';

/** One host pattern of a `network` rule: an exact name, `*.suffix` (names strictly below it) or `*` (any host). */
interface HostMatcher {
  readonly name: string;
  readonly kind: 'exact' | 'suffix' | 'any';
}

/** A host name compared the way the shell tool's proxy compares it: lower case, IDN as punycode, one trailing dot dropped. */
function normalise(host: string): string | undefined {
  const ascii = domainToASCII(host.endsWith('.') ? host.slice(0, -1) : host);
  return ascii === '' || ascii.includes('*') ? undefined : ascii;
}

function compileHost(pattern: string): HostMatcher {
  if (pattern === '*') return { name: '', kind: 'any' };
  const suffix = pattern.startsWith('*.');
  const name = normalise(suffix ? pattern.slice(2) : pattern);
  if (name === undefined) throw new Error(`${JSON.stringify(pattern)} is not a host name, *.name or *`);
  return { name, kind: suffix ? 'suffix' : 'exact' };
}

function hostMatches(matcher: HostMatcher, host: string): boolean {
  const name = normalise(host);
  if (name === undefined) return false;
  return matcher.kind === 'any' || (matcher.kind === 'suffix' ? name.endsWith(`.${matcher.name}`) : name === matcher.name);
}

/**
 * The `network` key: `{ allow: { tool: 'run_command', command: 'npm install *', network: 'registry.npmjs.org' } }`,
 * `{ ask: { tool: 'run_command', network: '*' } }`. It reads the hosts a shell call asks to reach
 * beyond the plugin's allow-list (its `network` argument, `shellTools({ network: { perCallHosts: true } })`):
 * - allow: the call names at least one host, and every one matches a pattern of this rule;
 * - deny and ask: any host matches; a `network` argument that is not a list of strings matches (fails closed).
 * A call that names no host is never matched by a `network` rule, so such a rule never widens other calls.
 */
export const networkRuleKey = {
  name: 'network',
  compile(value: unknown, effect: GuardDecision): (subject: RuleSubject) => boolean {
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (list === undefined || list.length === 0 || !list.every((item) => typeof item === 'string')) {
      throw new Error(`must be a host such as "registry.npmjs.org", "*.pypi.org" or "*", or a non-empty array of them, got ${JSON.stringify(value)}`);
    }
    const matchers = list.map((item) => compileHost(item));
    const matches = (host: string) => matchers.some((matcher) => hostMatches(matcher, host));
    return (subject) => {
      const hosts = (subject.arguments as Record<string, unknown>).network;
      if (hosts === undefined || (Array.isArray(hosts) && hosts.length === 0)) return false;
      if (!Array.isArray(hosts) || !hosts.every((host) => typeof host === 'string')) return effect !== 'allow';
      return effect === 'allow' ? hosts.every(matches) : hosts.some(matches);
    };
  },
};
