import type { GuardDecision } from '@weir/core';
import { analyzeCommandSync, type CommandAnalysis } from './analyze-command.js';
import { compileCommandPattern } from './command-pattern.js';
import { decideCommand } from './decide-command.js';
import type { RuleSubject } from '../rules/rule-subject.js';
import { loadShellParser } from './shell-parser.js';

/** The last lines analysed: every command rule of one call reads the same line. */
const recent = new Map<string, CommandAnalysis>();
const RECENT_LIMIT = 64;
/** Set once a command rule was compiled: only then do calls wait for the parser. */
let wanted: Promise<void> | undefined;

function analysisOf(command: string): CommandAnalysis {
  const known = recent.get(command);
  if (known !== undefined) return known;
  const analysis = analyzeCommandSync(command);
  // A line analysed before the parser loaded must be analysed again once it has.
  if (!analysis.ok && analysis.reason === 'the shell parser has not loaded') return analysis;
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value!);
  recent.set(command, analysis);
  return analysis;
}

/**
 * The `command` key: `{ allow: { tool: 'run_command', command: ['git status', 'ls *'] } }`,
 * `{ deny: { tool: 'run_command', command: 'rm *' } }`. It reads the call's `command` argument,
 * parsed as bash (see `decideCommand` for what each effect matches):
 * - allow: every simple command of the line matches one of this rule's patterns, with every word
 *   known and nothing that blocks an allow (redirect to a file, `if`, loop, `cd`, risky option);
 * - deny and ask: any simple command matches, wrappers, nested shells and substitutions included;
 *   and, failing closed, a line that does not parse, whose program is expanded at run time, or
 *   that runs code the parser cannot read; so does a call without a string `command`.
 */
export const commandRuleKey = {
  name: 'command',
  compile(value: unknown, effect: GuardDecision): (subject: RuleSubject) => boolean {
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (list === undefined || list.length === 0 || !list.every((item) => typeof item === 'string')) {
      throw new Error(`must be a command pattern such as "git status" or "rm *", or a non-empty array of them, got ${JSON.stringify(value)}`);
    }
    const rule = { effect, patterns: Object.freeze(list.map((item) => compileCommandPattern(item))), label: '' };
    // Loading starts now, so that it is done before the first call (the guard also waits for it).
    wanted ??= loadShellParser();
    wanted.catch(() => undefined);
    return (subject) => {
      const command = (subject.arguments as Record<string, unknown>).command;
      if (typeof command !== 'string') return effect !== 'allow';
      const decision = decideCommand(analysisOf(command), [rule]).decision;
      if (effect === 'allow') return decision === 'allow';
      // For a deny or an ask rule, decideCommand's "ask" means it could not judge the line: fail closed.
      return decision === effect || decision === 'ask';
    };
  },
  ready: (): Promise<void> => wanted ?? Promise.resolve(),
};
