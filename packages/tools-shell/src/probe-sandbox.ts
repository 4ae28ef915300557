import { ToolCallError } from '@weir/core';
import type { CommandRunner } from './command-runner.js';

const MARK = 'weir-sandbox-ok';

/** The sandbox cannot run commands here; `shellTools` refuses to load with this error. */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
  readonly code = 'SANDBOX_UNAVAILABLE';
  /** Why alone, with its fix (no advice about `unsafeNoSandbox`): for a caller that words its own line. */
  readonly reason: string;

  constructor(message: string, reason = message) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Runs one real command through the sandbox before the tool is offered: bubblewrap present and
 * working (user namespaces allowed), the command not root, the workspace writable by the sandbox
 * user. Throws `SandboxUnavailableError` saying what failed and what to do.
 */
export async function probeSandbox(runner: CommandRunner, root: string, userNote: string): Promise<void> {
  const check = `test "$(id -u)" != 0 || { echo 'runs as root'; exit 3; }; test -w ${quote(root)} || { echo 'workspace not writable'; exit 4; }; echo ${MARK}`;
  let outcome;
  try {
    outcome = await runner.run({ command: check, cwd: root, timeoutMs: 15_000, signal: new AbortController().signal });
  } catch (error) {
    // A refusal the tool would give at every call (a protected path that is a link) refuses the load too.
    if (error instanceof ToolCallError) throw unavailable(error.message.replace(/\.$/, ''));
    throw unavailable(`could not start the sandbox launcher (${error instanceof Error ? error.message : String(error)})`);
  }
  if (outcome.exitCode === 0 && outcome.output.includes(MARK)) return;
  const said = outcome.output.trim().slice(0, 500) || '(no output)';
  if (outcome.exitCode === 4 || said.includes(`chdir to ${root}`)) throw unavailable(`the workspace ${root} is not writable by ${userNote}; give it to that user (chown) or pass user: { uid, gid } of its owner`);
  if (outcome.exitCode === 3) throw unavailable(`commands would run as root inside the sandbox (${userNote})`);
  throw unavailable(`bubblewrap failed (exit ${outcome.exitCode ?? outcome.signal}): ${said}. ${launcherAdvice(said)}`);
}

const USERNS = 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu also kernel.apparmor_restrict_unprivileged_userns=0)';

/**
 * What to do about a launcher that started and failed, from what it said: bubblewrap is installed
 * (it ran), so "install it" is advice only for the namespace failures a missing setuid or a
 * locked-down kernel give; a mount it could not make names a path the sandbox was told to bind.
 */
export function launcherAdvice(said: string): string {
  if (/can't (?:bind|mount|mkdir|find source path|create file)|no such file or directory/i.test(said)) {
    return 'A path the sandbox mounts (the workspace, a protected path, an extra bind) is missing or cannot be mounted there: check that each exists and is a folder or file on a local filesystem';
  }
  if (/namespace|uid map|gid map|operation not permitted|permission denied/i.test(said)) return `The kernel refused the sandbox's namespaces: ${USERNS}`;
  return `Check that bubblewrap works here (bwrap --ro-bind / / true), and ${USERNS}`;
}

/** The error `shellTools` refuses to load with, saying why and the way out. */
export function unavailable(why: string): SandboxUnavailableError {
  return new SandboxUnavailableError(`the shell sandbox is not available: ${why}. run_command is not offered. To run commands with no sandbox at all (only where the machine itself is the boundary), pass unsafeNoSandbox: true`, why);
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
