import type { ToolArguments, ToolTier } from '@weir/core';
import { escapeForTerminal } from './escape-for-terminal.js';

/** What an approval prompt shows about a call. */
export interface ApprovalSummary {
  readonly toolName: string;
  readonly tier: ToolTier;
  readonly arguments: ToolArguments;
  readonly reason: string | undefined;
}

/** Default cap on one argument's shown JSON, in characters. */
export const DEFAULT_MAX_VALUE_CHARS = 2000;

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * The lines an approval prompt shows: the tool and its tier, one line per argument (the value as
 * compact JSON), and why approval is needed. Every piece that came from the model or a policy is
 * passed through `escapeForTerminal`. A value longer than `maxValueChars` is cut, and the cut says
 * how much is not shown. Never throws for JSON arguments.
 */
export function formatApproval(summary: ApprovalSummary, maxValueChars = DEFAULT_MAX_VALUE_CHARS): string[] {
  const lines = [`${escapeForTerminal(summary.toolName)} (${summary.tier} tool) wants to run with:`];
  const entries = Object.entries(summary.arguments);
  if (entries.length === 0) lines.push('  (no arguments)');
  for (const [key, value] of entries) {
    const name = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
    lines.push(`  ${escapeForTerminal(name)}: ${escapeForTerminal(cut(JSON.stringify(value) ?? String(value), maxValueChars))}`);
  }
  if (summary.reason !== undefined && summary.reason.trim() !== '') lines.push(`Why: ${escapeForTerminal(summary.reason)}`);
  return lines;
}

/**
 * How many characters of the arguments `formatApproval` leaves out at `maxValueChars`: 0 when the
 * prompt shows them whole. A prompt that cut something must not offer to allow before the person
 * asked to see the rest.
 */
export function hiddenCharacters(summary: Pick<ApprovalSummary, 'arguments'>, maxValueChars = DEFAULT_MAX_VALUE_CHARS): number {
  let hidden = 0;
  for (const value of Object.values(summary.arguments)) {
    const shown = JSON.stringify(value) ?? String(value);
    if (shown.length > maxValueChars) hidden += shown.length - cutAt(shown, maxValueChars);
  }
  return hidden;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = cutAt(text, max);
  return `${text.slice(0, end)} … (${text.length - end} more characters not shown)`;
}

/** Where a value longer than `max` is cut: never inside a surrogate pair (half of one would be shown as an escape and mislead). */
function cutAt(text: string, max: number): number {
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}
