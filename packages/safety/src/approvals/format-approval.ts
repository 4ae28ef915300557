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

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair: half of one would itself be shown as an escape and mislead.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)} … (${text.length - end} more characters not shown)`;
}
