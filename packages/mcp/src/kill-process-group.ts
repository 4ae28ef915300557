import type { ChildProcess } from 'node:child_process';

/** How long a server has after SIGTERM before its process group gets SIGKILL. */
export const KILL_GRACE_MS = 2_000;

/**
 * Ends a child started as the leader of its own process group (`detached: true`) and everything
 * it started: SIGTERM to the group, then SIGKILL to the group after `graceMs` if the leader is still
 * there. Resolves once the leader has exited. A grandchild that put itself in another group
 * (`setsid`) is out of reach; the tests check `/proc` for that.
 */
export async function killProcessGroup(child: ChildProcess, graceMs: number = KILL_GRACE_MS): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  const outcome = await Promise.race([exited, late]);
  clearTimeout(timer);
  // The leader may have gone while children it started linger: the group gets SIGKILL either way.
  signalGroup(pid, 'SIGKILL');
  if (outcome === 'late') await exited;
  await groupGone(pid, 1_000);
}

/**
 * Waits until no process of the group is left, at most `limitMs`: a killed process takes a moment
 * to go, and an orphaned zombie waits for init to reap it (bounded, since a container's init may never).
 */
async function groupGone(pid: number, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (groupExists(pid) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals a whole process group; a group that is already gone is not an error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
