import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { signalGroup } from './kill-process-group.js';

// Reads "+<pgid>" and "-<pgid>" lines; at end of input (this process gone, however it went: even
// SIGKILL closes the pipe) it sends SIGKILL to every group still listed. POSIX sh, no other program
// (`kill -9 -<pgid>`: dash's kill takes neither `--` nor `-s KILL` before a negative pid).
const SCRIPT = `g=" "
while IFS= read -r line; do
  case "$line" in
    +*) g="$g\${line#+} " ;;
    -*) id="\${line#-}"; case "$g" in *" $id "*) g="\${g%% $id *} \${g#* $id }" ;; esac ;;
  esac
done
for p in $g; do kill -9 "-$p" 2>/dev/null; done
`;

interface Reaper {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

const groups = new Set<number>();
let reaper: Reaper | undefined;
let exitHookInstalled = false;

/**
 * Tracks a server's process group so it is ended even if this process dies without unloading:
 * on a normal exit, by this process's `exit` handler; on a crash or SIGKILL, by a small `sh` in a
 * group of its own that holds the read end of a pipe from us and kills the groups it was told of
 * when the pipe closes (Node has no `prctl`, so no `PR_SET_PDEATHSIG` of our own). The watcher runs
 * only while some group is tracked.
 */
export function trackGroup(pgid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of groups) signalGroup(group, 'SIGKILL');
    });
  }
  groups.add(pgid);
  if (reaper !== undefined) {
    reaper.child.stdin?.write(`+${pgid}\n`);
    return;
  }
  // A new watcher (the first group, or the last one went away) is told of every group.
  reaper = startReaper();
  for (const group of groups) reaper.child.stdin?.write(`+${group}\n`);
}

/** Stops tracking a group that has been ended; resolves once the watcher is gone when it was the last. */
export function untrackGroup(pgid: number): Promise<void> {
  if (!groups.delete(pgid)) return Promise.resolve();
  const current = reaper;
  if (current === undefined) return Promise.resolve();
  current.child.stdin?.write(`-${pgid}\n`);
  if (groups.size > 0) return Promise.resolve();
  reaper = undefined;
  current.child.stdin?.end();
  // Waited for now, so the loop must stay up until the watcher's exit is heard (else a process with
  // nothing else to do ends with this promise, and an awaited unload, unsettled). A timer does it:
  // referencing the child again would leave its handle counted for a turn after its exit.
  const keepAlive = setInterval(() => undefined, 60_000);
  return current.exited.finally(() => clearInterval(keepAlive));
}

function startReaper(): Reaper {
  const child = spawn('/bin/sh', ['-c', SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  // It must not keep this process alive: its pipe closing at our exit is what it waits for.
  child.unref();
  (child.stdin as Socket | null)?.unref();
  child.stdin?.on('error', () => undefined);
  exited.then(() => {
    if (reaper?.child === child) reaper = undefined;
  });
  return { child, exited };
}
