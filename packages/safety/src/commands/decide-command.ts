import type { GuardDecision } from '@weir/core';
import type { CommandAnalysis, SimpleCommand } from './analyze-command.js';
import { allowMatches, strictMatches, type CommandPattern } from './command-pattern.js';

/** A rule's command side: its effect, its patterns and how a person would write it. */
export interface CommandRule {
  readonly effect: GuardDecision;
  readonly patterns: readonly CommandPattern[];
  readonly label: string;
}

/** What the command rules say about one command line; `undefined` decision: no rule decides, the mode does. */
export interface CommandDecision {
  readonly decision: GuardDecision | undefined;
  readonly reason: string;
  /** The rule that decided, when one did. */
  readonly rule: CommandRule | undefined;
}

/**
 * Decides a command line against command rules, each step final:
 * 1. a line that does not parse asks;
 * 2. a deny rule matching any command it runs (outer, nested, wrapped, in a substitution) denies;
 * 3. something a deny rule cannot see (a program expanded at run time, code that does not parse
 *    inside `bash -c`) asks, when there is any deny rule;
 * 4. an ask rule matching any command asks;
 * 5. allow rules allow only when every simple command matches one, with every word known, and
 *    nothing blocks (a redirect to a file, an `if`, a loop, a `cd` before other commands, a risky
 *    assignment or option);
 * 6. otherwise no command rule decides.
 * Never throws.
 */
export function decideCommand(analysis: CommandAnalysis, rules: readonly CommandRule[]): CommandDecision {
  if (!analysis.ok) return { decision: 'ask', reason: `${analysis.reason}, so no rule can judge it`, rule: undefined };
  const strict = (effect: GuardDecision) => {
    for (const rule of rules) {
      if (rule.effect !== effect) continue;
      for (const command of analysis.commands) {
        const hit = [command.argv, ...command.inner].find((argv) => rule.patterns.some((pattern) => strictMatches(pattern, argv)));
        if (hit !== undefined) return { rule, command };
      }
    }
    return undefined;
  };

  const deny = strict('deny');
  if (deny) return { decision: 'deny', reason: `the safety rule ${deny.rule.label} forbids ${JSON.stringify(deny.command.text)}`, rule: deny.rule };
  if (analysis.uncertain.length > 0 && rules.some((rule) => rule.effect === 'deny')) {
    return { decision: 'ask', reason: `the deny rules cannot judge it: ${analysis.uncertain[0]}`, rule: undefined };
  }
  const ask = strict('ask');
  if (ask) return { decision: 'ask', reason: `the safety rule ${ask.rule.label} asks every time (${JSON.stringify(ask.command.text)})`, rule: ask.rule };

  const allows = rules.filter((rule) => rule.effect === 'allow');
  if (allows.length === 0) return { decision: undefined, reason: 'no command rule applies', rule: undefined };
  if (analysis.commands.length === 0) return { decision: undefined, reason: 'it runs no command', rule: undefined };
  const blocked = analysis.blockers[0] ?? analysis.uncertain[0];
  if (blocked !== undefined) return { decision: undefined, reason: `no allow rule covers it: ${blocked}`, rule: undefined };
  let covering: CommandRule | undefined;
  for (const command of analysis.commands) {
    const rule = allowFor(command, allows);
    if (rule === undefined) {
      const why = command.blockers[0];
      return { decision: undefined, reason: `no allow rule covers ${JSON.stringify(command.text)}${why === undefined ? '' : ` (${why})`}`, rule: undefined };
    }
    covering ??= rule;
  }
  return { decision: 'allow', reason: `every part is allowed (${[...new Set(analysis.commands.map((command) => allowFor(command, allows)!.label))].join(', ')})`, rule: covering };
}

function allowFor(command: SimpleCommand, allows: readonly CommandRule[]): CommandRule | undefined {
  if (command.blockers.length > 0) return undefined;
  return allows.find((rule) => rule.patterns.some((pattern) => allowMatches(pattern, command.argv)));
}
