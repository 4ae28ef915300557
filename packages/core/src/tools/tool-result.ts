import type { ContentPart } from './content-part.js';

/** The stable error codes of the pipeline. Tools may use codes of their own (tools-fs does). */
export type ToolErrorCode =
  | 'TOOL_NOT_FOUND'
  | 'INVALID_ARGUMENTS'
  | 'BLOCKED'
  | 'DENIED'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'EXECUTION_FAILED'
  | 'INVALID_OUTPUT'
  /** The tool's own parameters or output schema did not compile (found at its first call): the tool is broken, not the call. */
  | 'INVALID_SCHEMA'
  | 'HOOK_FAILED'
  /** The agent loop never runs tool calls of an answer cut off by length, a content filter or an error. */
  | 'NOT_EXECUTED';

export interface ToolError {
  /** A stable string: one of `ToolErrorCode`, or a tool's own code such as `NOT_FOUND`. */
  readonly code: ToolErrorCode | (string & {});
  /** Written for the model to act on: what went wrong and what to do instead. */
  readonly message: string;
}

interface ToolResultBase {
  readonly callId: string;
  readonly toolName: string;
  /** What the model reads for this call: its text (all of it when `parts` is absent). */
  readonly content: string;
  /**
   * The whole content when it holds more than text (an image, a resource): text parts, images and
   * resources in order; `content` is then its text (`textOfParts`). Absent for text-only content.
   */
  readonly parts?: readonly ContentPart[];
  /** Notes that plugins attached in postExecute; already part of the final `content`. */
  readonly context: readonly string[];
  /** Wall time from the start of the pipeline to this result, in milliseconds. */
  readonly durationMs: number;
  /** How many times the body ran (0 when it never ran). */
  readonly attempts: number;
}

export interface ToolSuccess extends ToolResultBase {
  readonly ok: true;
  /** The body's value, validated against `output.schema` and deep frozen. */
  readonly value: unknown;
}

export interface ToolFailure extends ToolResultBase {
  readonly ok: false;
  readonly error: ToolError;
}

/** A frozen discriminated union on `ok`. Built only by `successResult` and `failureResult`. */
export type ToolResult = ToolSuccess | ToolFailure;

/** Call metadata every result carries. */
export interface ResultMeta {
  readonly callId: string;
  readonly toolName: string;
  readonly durationMs: number;
  readonly attempts: number;
  readonly context?: readonly string[];
}

const NO_CONTEXT: readonly string[] = Object.freeze([]);

/**
 * Builds a frozen success. `value` must already be frozen (the pipeline deep-freezes it). `parts`,
 * when given, must be frozen and hold more than text; `content` is then their text.
 */
export function successResult(meta: ResultMeta, value: unknown, content: string, parts?: readonly ContentPart[]): ToolSuccess {
  if (parts !== undefined) {
    return Object.freeze({
      ok: true,
      callId: meta.callId,
      toolName: meta.toolName,
      value,
      content,
      parts,
      context: meta.context ?? NO_CONTEXT,
      durationMs: meta.durationMs,
      attempts: meta.attempts,
    });
  }
  return Object.freeze({
    ok: true,
    callId: meta.callId,
    toolName: meta.toolName,
    value,
    content,
    context: meta.context ?? NO_CONTEXT,
    durationMs: meta.durationMs,
    attempts: meta.attempts,
  });
}

/** Longest failure message: what a model needs to act on, never a dump. */
export const MAX_FAILURE_MESSAGE_CHARS = 2_000;

/** Builds a frozen failure whose content tells the model the code and the message (capped at 2,000 characters). */
export function failureResult(meta: ResultMeta, code: ToolError['code'], message: string, content?: string): ToolFailure {
  if (message.length > MAX_FAILURE_MESSAGE_CHARS) message = `${message.slice(0, MAX_FAILURE_MESSAGE_CHARS - 3)}...`;
  if (typeof code === 'string' && code.length > 64) code = code.slice(0, 64);
  return Object.freeze({
    ok: false,
    callId: meta.callId,
    toolName: meta.toolName,
    error: Object.freeze({ code, message }),
    content: content ?? `Error [${code}]: ${message}`,
    context: meta.context ?? NO_CONTEXT,
    durationMs: meta.durationMs,
    attempts: meta.attempts,
  });
}

/**
 * Thrown by a tool body to fail with a code of its own (for example `NOT_FOUND`) and a message
 * written for the model. Any other thrown error becomes `EXECUTION_FAILED`.
 */
export class ToolCallError extends Error {
  override readonly name = 'ToolCallError';
  readonly code: string;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  /** Recognises a `ToolCallError` from any copy of `@weir/core` (by its brand, not its class). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isToolCallError(value);
  }
}
// See HarnessError: a brand survives a plugin's own copy of @weir/core.
const TOOL_CALL_ERROR = Symbol.for('weir.ToolCallError');
Object.defineProperty(ToolCallError.prototype, TOOL_CALL_ERROR, { value: true });

/** True for a `ToolCallError` of any copy of `@weir/core`: its code is kept and it is never retried. */
export function isToolCallError(error: unknown): error is ToolCallError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[TOOL_CALL_ERROR] === true &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}
