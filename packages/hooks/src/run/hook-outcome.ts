import type { HookEntry } from '../settings/hook-entry.js';
import type { CommandRun } from './run-hook-command.js';

/** What one hook run decided, read from its exit code and output the way Claude Code reads them. */
export interface HookOutcome {
  readonly hook: HookEntry;
  /**
   * `deny`/`ask`/`allow`: a tool hook's permission decision; `block`: the prompt, the stop or the
   * result is blocked (PreToolUse's exit 2 and top-level `block` are `deny`); `none`: no decision.
   */
  readonly decision: 'allow' | 'deny' | 'ask' | 'block' | 'none';
  /** The hook's reason, or what went wrong when it failed. */
  readonly reason: string | undefined;
  /** Text for the model (`additionalContext`, or plain stdout where the event takes it). */
  readonly context: string | undefined;
  /** PreToolUse's `updatedInput`, in the hook's own shape. */
  readonly updatedInput: Record<string, unknown> | undefined;
  /** `continue: false`: stop, with `stopReason`. */
  readonly stop: boolean;
  readonly stopReason: string | undefined;
  /** Shown to the person, never the model. */
  readonly systemMessage: string | undefined;
  readonly suppressOutput: boolean;
  /** Set when the hook failed (timed out, killed, not started, malformed output, an unexpected exit): what happened. */
  readonly failure: string | undefined;
  readonly run: CommandRun;
}

/** Plain stdout on exit 0 is context for these events (Claude Code's rule). */
const PLAIN_STDOUT_CONTEXT = new Set(['UserPromptSubmit', 'SessionStart']);
const PERMISSIONS = new Set(['allow', 'deny', 'ask']);

/**
 * Reads a run. Exit 0: JSON on stdout (when it starts with `{`) or plain text; exit 2: a block with
 * standard error as the reason (stdout ignored); anything else, a signal, a timeout or a shell that
 * could not start: `failure` says what happened, and the caller decides whether that fails closed.
 * Output that is not the format (half a JSON object, a permission decision that is not one) is a
 * failure too, never a silent pass.
 */
export function readHookOutcome(hook: HookEntry, run: CommandRun): HookOutcome {
  const base = { hook, run, decision: 'none' as HookOutcome['decision'], reason: undefined, context: undefined, updatedInput: undefined, stop: false, stopReason: undefined, systemMessage: undefined, suppressOutput: false, failure: undefined };
  const failed = (failure: string): HookOutcome => ({ ...base, failure });
  switch (run.status) {
    case 'not-started':
      return failed(`could not be started (${run.error})`);
    case 'timed-out':
      return failed(`timed out after ${hook.timeoutMs / 1000} s and its process group was killed`);
    case 'signalled':
      return failed(`was killed by ${run.signal}`);
    default:
  }
  if (run.exitCode === 2) {
    const reason = run.stderr.trim() || `the hook exited 2 without a reason on standard error`;
    return { ...base, decision: hook.event === 'PreToolUse' ? 'deny' : 'block', reason };
  }
  if (run.exitCode !== 0) {
    const tail = run.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
    const why = run.exitCode === 127 ? ' (command not found: a missing program, or a script with CRLF line endings)' : run.exitCode === 126 ? ' (the command is not executable)' : '';
    return failed(`exited ${run.exitCode}${why}${tail === '' ? '' : `: ${tail}`}`);
  }
  const stdout = run.stdout.trim();
  if (!stdout.startsWith('{')) {
    if (run.truncated) return failed('wrote more than the output cap');
    return { ...base, context: stdout !== '' && PLAIN_STDOUT_CONTEXT.has(hook.event) ? stdout : undefined };
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    return failed(`answered malformed JSON on standard output (${(error as Error).message})${run.truncated ? ', cut at the output cap' : ''}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return failed('answered JSON that is not an object');
  return readJson(base, json as Record<string, unknown>, failed);
}

function readJson(base: HookOutcome, json: Record<string, unknown>, failed: (why: string) => HookOutcome): HookOutcome {
  const { hook } = base;
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const specific = typeof json.hookSpecificOutput === 'object' && json.hookSpecificOutput !== null ? (json.hookSpecificOutput as Record<string, unknown>) : {};
  let decision: HookOutcome['decision'] = 'none';
  let reason = str(json.reason);
  let updatedInput: Record<string, unknown> | undefined;
  const top = json.decision;
  if (hook.event === 'PreToolUse') {
    const permission = specific.permissionDecision;
    if (permission !== undefined) {
      if (!PERMISSIONS.has(permission as string)) return failed(`answered permissionDecision ${JSON.stringify(permission)}; expected allow, deny or ask`);
      decision = permission as HookOutcome['decision'];
      reason = str(specific.permissionDecisionReason) ?? reason;
    } else if (top !== undefined) {
      // The older top-level form (Claude Code's approve/block) and Gemini CLI's allow/deny.
      const mapped = top === 'approve' || top === 'allow' ? 'allow' : top === 'block' || top === 'deny' ? 'deny' : top === 'ask' ? 'ask' : undefined;
      if (mapped === undefined) return failed(`answered decision ${JSON.stringify(top)}; expected approve, block, allow, deny or ask`);
      decision = mapped;
    }
    const updated = specific.updatedInput ?? (hook.dialect === 'gemini' ? undefined : undefined);
    if (updated !== undefined) {
      if (typeof updated !== 'object' || updated === null || Array.isArray(updated)) return failed('answered an updatedInput that is not an object');
      updatedInput = updated as Record<string, unknown>;
    }
  } else if (top !== undefined) {
    if (top === 'block' || top === 'deny') decision = 'block';
    else if (top !== 'approve' && top !== 'allow' && top !== undefined) return failed(`answered decision ${JSON.stringify(top)}; expected block`);
  }
  const stop = json.continue === false;
  if (json.continue !== undefined && typeof json.continue !== 'boolean') return failed('answered a "continue" that is not true or false');
  const systemMessage = str(json.systemMessage);
  if ((decision === 'deny' || decision === 'block') && reason === undefined) reason = systemMessage ?? `the hook answered ${decision} without a reason`;
  const context = str(specific.additionalContext);
  return { ...base, decision, reason, context, updatedInput, stop, stopReason: str(json.stopReason), systemMessage, suppressOutput: json.suppressOutput === true };
}
