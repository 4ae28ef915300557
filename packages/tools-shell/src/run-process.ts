import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { OutputCapture } from './output-capture.js';
import type { SpawnSpec } from './sandbox-command.js';

/** Why a command was killed, when it was. */
export type KillReason = 'deadline' | 'abort' | 'output';

/** How a command ended. */
export interface ProcessOutcome {
  /** The exit code, or `null` when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it (`SIGKILL`, `SIGXFSZ`, ...), or `null`. */
  readonly signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as written, head and tail kept within the cap. */
  readonly output: string;
  readonly outputBytes: number;
  readonly elidedBytes: number;
  readonly killed: KillReason | undefined;
  readonly durationMs: number;
}

export interface RunProcessOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly maxOutputBytes: number;
  readonly killAfterOutputBytes: number;
  /** Gets the output as it arrives, decoded, until `maxOutputBytes` of it were streamed. */
  readonly onOutput?: (text: string) => void;
  /** Called with the child right after spawn and once more when it is gone (to track what is alive). */
  readonly track?: (child: ChildProcess, alive: boolean) => void;
}

/** Time between the polite SIGTERM and the SIGKILL of the process group. */
export const KILL_GRACE_MS = 2_000;

/**
 * Spawns `spec` in a process group of its own, stdin from /dev/null, and waits until the
 * process is gone and its output pipe is closed (so anything that held the pipe open is gone
 * too). The deadline, an abort or too much output kill the whole group: SIGTERM, then SIGKILL
 * after `KILL_GRACE_MS`. Rejects only when the process could not be spawned.
 */
export function runProcess(spec: SpawnSpec, options: RunProcessOptions): Promise<ProcessOutcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(spec.file, [...spec.args], { cwd: options.cwd, env: { ...spec.env }, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    } catch (error) {
      reject(error);
      return;
    }
    options.track?.(child, true);
    const capture = new OutputCapture(options.maxOutputBytes);
    const decoder = new StringDecoder('utf8');
    let streamed = 0;
    let killed: KillReason | undefined;
    let forceTimer: NodeJS.Timeout | undefined;

    const killGroup = (reason: KillReason) => {
      if (killed !== undefined || child.pid === undefined) return;
      killed = reason;
      signalGroup(child.pid, 'SIGTERM');
      forceTimer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), KILL_GRACE_MS);
    };
    const deadline = setTimeout(() => killGroup('deadline'), options.timeoutMs);
    const onAbort = () => killGroup('abort');
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      capture.push(chunk);
      if (options.onOutput !== undefined && streamed < options.maxOutputBytes) {
        const part = chunk.subarray(0, options.maxOutputBytes - streamed);
        streamed += part.length;
        const text = decoder.write(part);
        if (text !== '') options.onOutput(text);
      }
      if (capture.totalBytes > options.killAfterOutputBytes) killGroup('output');
    });

    let settled = false;
    const finish = () => {
      settled = true;
      clearTimeout(deadline);
      if (forceTimer !== undefined) clearTimeout(forceTimer);
      options.signal.removeEventListener('abort', onAbort);
      options.track?.(child, false);
    };
    child.once('error', (error) => {
      // Only a spawn failure leaves no pid; any later error is followed by 'close'.
      if (settled || child.pid !== undefined) return;
      finish();
      reject(error);
    });
    // 'close' comes after the exit and after the pipe closed: nothing of the command is left.
    child.once('close', (code, signal) => {
      if (settled) return;
      finish();
      resolve({
        exitCode: code,
        signal,
        output: capture.text(),
        outputBytes: capture.totalBytes,
        elidedBytes: capture.elidedBytes,
        killed,
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}

/** Signals a whole process group; a group already gone is not an error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}
