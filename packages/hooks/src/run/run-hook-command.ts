import { spawn } from 'node:child_process';

/** What running one hook command gave. */
export interface CommandRun {
  /** `exited` with a code, `signalled`, `timed-out` (its group was killed), or `not-started`. */
  readonly status: 'exited' | 'signalled' | 'timed-out' | 'not-started';
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** A stream went over the cap and was cut. */
  readonly truncated: boolean;
  /** Why it could not start (`not-started`). */
  readonly error: string | undefined;
  readonly durationMs: number;
}

export interface RunCommandOptions {
  readonly command: string;
  readonly shell: string;
  readonly input: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

/**
 * Runs `command` under `shell -c` in a process group of its own, writes `input` to its standard
 * input, and collects its output up to `maxOutputBytes` a stream. At the timeout (or an abort) the
 * whole group is killed; when the shell exits, the group is killed too, so a child it forked and
 * left behind does not outlive the hook. Never rejects.
 */
export function runHookCommand(options: RunCommandOptions): Promise<CommandRun> {
  const began = performance.now();
  return new Promise((resolvePromise) => {
    let child;
    try {
      child = spawn(options.shell, ['-c', options.command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolvePromise(notStarted(error, began));
      return;
    }
    const out = collector(options.maxOutputBytes);
    const err = collector(options.maxOutputBytes);
    let timedOut = false;
    let settled = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const finish = (run: CommandRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolvePromise(run);
    };
    const onAbort = () => {
      timedOut = true;
      killGroup();
    };
    const timer = setTimeout(onAbort, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    child.stdout.on('data', out.add);
    child.stderr.on('data', err.add);
    child.on('error', (error) => {
      killGroup();
      finish(notStarted(error, began));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // What the hook forked and left running goes with it; its pipes then close.
      killGroup();
    });
    child.on('close', () => {
      const { code, signal } = exit ?? { code: null, signal: null };
      finish({
        status: timedOut ? 'timed-out' : signal !== null ? 'signalled' : 'exited',
        exitCode: code,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        error: undefined,
        durationMs: performance.now() - began,
      });
    });
    // A hook that does not read its input closes the pipe early: that is its business.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
  });
}

function notStarted(error: unknown, began: number): CommandRun {
  return { status: 'not-started', exitCode: null, signal: null, stdout: '', stderr: '', truncated: false, error: (error as Error)?.message ?? String(error), durationMs: performance.now() - began };
}

function collector(max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  const state = {
    truncated: false,
    add: (chunk: Buffer) => {
      if (size >= max) {
        state.truncated = true;
        return;
      }
      const room = max - size;
      if (chunk.length > room) state.truncated = true;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
  return state;
}
