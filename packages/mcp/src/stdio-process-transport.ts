import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { trackGroup, untrackGroup } from './group-reaper.js';
import { killProcessGroup, signalGroup } from './kill-process-group.js';
import { LineReader, MAX_LINE_BYTES } from './line-reader.js';
import { answerTooLarge } from './oversized-answer.js';
import { StderrTail } from './stderr-tail.js';

/** The SDK's stdio message codec (one JSON-RPC message per line), loaded with the SDK when a server starts. */
export interface StdioFraming {
  /** Parses one line and checks it is a JSON-RPC message; throws when it is not. */
  readonly deserializeMessage: (line: string) => JSONRPCMessage;
  readonly serializeMessage: (message: JSONRPCMessage) => string;
}

export interface StdioProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
}

const SENT: Promise<void> = Promise.resolve();

/** How long the pipes may stay open after the server exited (a helper outside its group holding them) before they are cut. */
export const EXIT_DRAIN_MS = 200;

/**
 * An MCP client transport over a child's stdin and stdout, like the SDK's `StdioClientTransport`
 * but with what a harness needs on top: the child leads its own process group, so closing ends it
 * and every process it started; the stderr tail is kept for error messages; and the exit code is
 * known. Lines are split by a `LineReader`; the SDK's own codec parses and checks each message.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly stderr = new StderrTail();
  #child: ChildProcess | undefined;
  #closing: Promise<void> | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #streamsClosed: Promise<void> | undefined;
  #endedOnce = false;
  #untracked: Promise<void> | undefined;
  readonly #lines = new LineReader();

  constructor(
    private readonly options: StdioProcessOptions,
    private readonly framing: StdioFraming,
  ) {}

  /** The child's pid once started (also its process group id). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exit;
  }

  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error('StdioProcessTransport already started.');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [...this.options.args], {
        env: { ...this.options.env },
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
        windowsHide: true,
      });
      this.#child = child;
      this.#streamsClosed = new Promise((resolveClosed) => child.once('close', () => resolveClosed()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        if (this.#closing === undefined) void this.#afterExit(child);
      });
      child.once('close', () => this.#ended(child));
      child.stdout!.on('data', (chunk: Buffer) => this.#receive(chunk));
      child.stderr!.on('data', (chunk: Buffer) => this.stderr.append(chunk));
      // A child that dies while we write gives EPIPE: the close event reports it, nothing to add.
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('error', (error) => this.onerror?.(error));
    });
  }

  /**
   * The server exited on its own (a crash, an exit): the connection ends now, whoever still holds
   * its stdout. What is left of its process group (its helpers) gets SIGKILL at once, and the pipes
   * are cut after `EXIT_DRAIN_MS` if a process outside the group still holds them, so the calls in
   * flight fail and the next call starts the server again (issue 27: found by the process, not the pipe).
   */
  async #afterExit(child: ChildProcess): Promise<void> {
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#streamsClosed, new Promise((resolve) => (timer = setTimeout(resolve, EXIT_DRAIN_MS)))]);
    clearTimeout(timer);
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
    this.#ended(child);
  }

  #ended(child: ChildProcess): void {
    if (this.#endedOnce) return;
    this.#endedOnce = true;
    if (child.pid !== undefined) this.#untracked = untrackGroup(child.pid);
    this.onclose?.();
  }

  #receive(chunk: Buffer): void {
    this.#lines.append(chunk);
    for (let line = this.#lines.readLine(); line !== undefined; line = this.#lines.readLine()) {
      if (typeof line !== 'string') {
        // One answer over the cap: it was dropped as it streamed by, and only its call fails.
        const standIn = answerTooLarge(line);
        if (standIn !== undefined) this.onmessage?.(standIn);
        else this.onerror?.(new Error(`a message of ${line.bytes} bytes from the server passed the cap of ${MAX_LINE_BYTES} bytes and was dropped; its request id could not be read`));
        continue;
      }
      let message: JSONRPCMessage;
      try {
        message = this.framing.deserializeMessage(line);
      } catch (error) {
        // A line that is not JSON-RPC (a server printing to stdout): report it and go on.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed || this.#exit !== undefined) return Promise.reject(new Error('Not connected: the server process is not running.'));
    // Resolved once the pipe took the message (or drained), not when it was flushed: waiting for
    // the write callback costs a turn of the event loop per message. A pipe that took it at once
    // answers with one shared settled promise rather than a new one per message.
    if (stdin.write(this.framing.serializeMessage(message))) return SENT;
    return new Promise((resolve) => stdin.once('drain', resolve));
  }

  /** Ends the child and its process group; resolves once the child has exited. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const child = this.#child;
    this.#lines.clear();
    if (child === undefined || child.pid === undefined) return;
    child.stdin?.end();
    await killProcessGroup(child);
    // 'close' comes once the pipes are shut too; a grandchild that escaped the group may hold them.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#streamsClosed, new Promise((resolve) => (timer = setTimeout(resolve, 500)))]);
    clearTimeout(timer);
    // The child's handle is released in the close phase of the loop after its exit, which comes
    // after this turn's immediates: the second immediate runs once it has.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    await (this.#untracked ?? untrackGroup(child.pid));
  }
}
