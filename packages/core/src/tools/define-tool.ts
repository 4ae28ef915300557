import type { CallRun } from './call-run.js';
import type { Logger } from '../logger.js';
import type { InferParameters } from './infer-schema.js';
import type { JsonSchema, StandardJsonSchema } from './schema-validator.js';
import type { Sandbox } from '../policy/sandbox.js';
import type { ContentPart } from './content-part.js';
import type { ToolProgress } from './tool-progress.js';

/** What safety policies key on: `read-only` observes, `write` changes files, `dangerous` may do anything. */
export type ToolTier = 'read-only' | 'write' | 'dangerous';

/**
 * What a tool does to the files its path arguments name, for policies that judge a call without
 * knowing the tool: `read` (reads content), `list` (reads names), `write` (creates or replaces a
 * whole file), `edit` (changes part of an existing file), `delete`.
 */
export type FileAction = 'read' | 'list' | 'write' | 'edit' | 'delete';

/** One path argument of a tool, as it declares it. */
export interface ToolPathArgument {
  /**
   * Where the path sits in the arguments: `path`, `file_path`, a nested place (`options.target`),
   * an array (`paths[]`), objects in an array (`edits[].file_path`).
   */
  readonly argument: string;
  /** What the path names; default `'file'`. `'any'`: a file or a directory (a search's root). */
  readonly kind?: 'file' | 'directory' | 'any';
  /** What the tool uses when the argument is omitted (`'.'`: the whole workspace). */
  readonly default?: string;
}

/**
 * What a tool declares about files: its action and which arguments are paths. A string in `paths`
 * is `{ argument: string }`.
 *
 * @example { action: 'read', paths: ['path'] }
 * @example { action: 'list', paths: [{ argument: 'path', kind: 'directory', default: '.' }] }
 */
export interface ToolFiles {
  readonly action: FileAction;
  readonly paths: readonly (string | ToolPathArgument)[];
}

/**
 * The seam between a policy and a tool body that opens paths itself: before the body reads, lists
 * or writes a physical path, it asks `check` with the canonical path it is about to open, relative
 * to the sandbox root (`.` for the root). A refusal means: do not touch it (a reading tool walking a
 * directory leaves the entry out; a tool named on that path fails). A policy plugin (`@weir/safety`)
 * sets it through an execute-stage wrapper; without one it is absent, and there is nothing to ask.
 */
export interface FileAccess {
  check(relativePath: string): FileAccessVerdict;
}

/** `allowed: false` carries the reason, written for the model. */
export type FileAccessVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/** What a tool body receives besides its arguments. */
export interface ToolExecution {
  /** Aborts on the caller's signal, the turn's signal and the call's timeout. Bodies should honour it. */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once, with the abort reason, when the call is interrupted (the cases `signal`
   * aborts on), or at once when it already was; returns a function that removes it. Cheaper than
   * reading `signal` (no AbortSignal is made): for a body that forwards the abort to an API of its
   * own. Optional: an `exec` made outside the pipeline may lack it; `signal` is always there.
   */
  readonly onAbort?: (listener: (reason: unknown) => void) => () => void;
  readonly callId: string;
  /** The harness's key for this execution (see `CallContext.callKey`). */
  readonly callKey: string;
  /** The run the call belongs to. */
  readonly run: CallRun;
  readonly toolName: string;
  /** 1 for the first run, 2 for the first retry, ... */
  readonly attempt: number;
  readonly logger: Logger;
  /** The workspace confinement a plugin provided (tools-fs does), if any. */
  readonly sandbox: Sandbox | undefined;
  /** The policy's check of the physical paths the body opens, when a policy plugin provides one. */
  readonly fileAccess?: FileAccess;
  /**
   * Reports what the body is doing, any number of times: observers (the `progress` hook, the agent's
   * `tool-progress` events) get each report as it happens, throttled in a burst; the result never
   * changes. Each report renews the tool's `idleTimeoutMs`. Reports after the call settled are dropped.
   * Throws a `TypeError` on a malformed report.
   */
  progress(update: ToolProgress): void;
}

/** Retry policy for the body. Declare it only where running the body twice is safe. */
export interface ToolRetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  /** First backoff in milliseconds (default 100), doubled each time up to `maxTimeoutMs` (default 2000). */
  readonly minTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  /** Return false to stop retrying on this error. Errors thrown as `ToolCallError` are never retried. */
  readonly shouldRetry?: (error: unknown) => boolean;
}

/** An example call, run by the conformance kit (`@weir/core/testing`). */
export interface ToolExample {
  readonly arguments: Record<string, unknown>;
  /** Expect success (default) or a failure with this code. */
  readonly expect?: { readonly ok: true } | { readonly ok: false; readonly code: string };
}

/** `parameters` may be a JSON Schema object (draft-07 or 2020-12) or a Standard Schema with JSON Schema. */
export type ToolParameters = JsonSchema | StandardJsonSchema;

export interface ToolOutput<Value> {
  /** Validates the body's value (JSON Schema or Standard Schema); a mismatch is `INVALID_OUTPUT`. */
  readonly schema?: ToolParameters;
  /**
   * Projects the value into what the model reads: a string, or content parts (text, images,
   * resources). Default: a string as is, anything else pretty JSON.
   */
  render?(value: Value): string | readonly ContentPart[];
}

export interface ToolDefinition<Args = any, Value = any> {
  /** Unique in a registry, `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** What the model reads to decide when to call the tool. */
  readonly description: string;
  readonly parameters: ToolParameters;
  /** The body: the only code a tool author writes. It may throw; the pipeline turns that into a result. */
  readonly execute: (args: Args, exec: ToolExecution) => Value | Promise<Value>;
  /** Default `'dangerous'`: a tool that does not say what it does is not trusted. */
  readonly tier?: ToolTier;
  /** The file action the tool performs and which arguments are paths, for policies (path rules, action rules). */
  readonly files?: ToolFiles;
  readonly output?: ToolOutput<Value>;
  /** The tool's own transform of its model-visible content, before the finalizeContent taps. */
  readonly finalizeContent?: (content: string) => string;
  /** Per-call deadline. `Infinity` disables it. Default: the harness's `defaultTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Stop the call (`TIMEOUT`) when the body reports no progress for this long. Each `exec.progress`
   * renews it; it never extends `timeoutMs`, the hard total deadline. Absent: no idle deadline.
   */
  readonly idleTimeoutMs?: number;
  /** Retry the body on failure, within the deadline. Absent: never retried. */
  readonly retry?: number | ToolRetryPolicy;
  readonly examples?: readonly ToolExample[];
}

/**
 * Declares a tool with its arguments typed from `parameters`: a JSON Schema literal (no `as const`
 * needed) or a Standard Schema such as zod. Returns the definition unchanged; validation and
 * compilation happen at registration.
 */
export function defineTool<const P extends ToolParameters, Value>(
  definition: Omit<ToolDefinition<InferParameters<P>, Value>, 'parameters'> & { readonly parameters: P },
): ToolDefinition<InferParameters<P>, Value> {
  return definition;
}
