import type { CallRun } from './call-run.js';
import type { Logger } from '../logger.js';
import type { RegisteredTool } from './tool-registry.js';
import type { Sandbox } from '../policy/sandbox.js';

/** A tool call as a model sends it: arguments as the raw JSON string, or an already parsed object. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string | Readonly<Record<string, unknown>>;
  /**
   * The harness's own key for this execution (a UUIDv7), when the caller already made one (the agent
   * loop does, and records it, so a resumed call keeps its key). Without it the harness makes one.
   */
  readonly key?: string;
}


/** Parsed and validated arguments. */
export type { CallRun } from './call-run.js';

export type ToolArguments = Readonly<Record<string, unknown>>;

/** The one context object every tap of every stage receives for a call, next to the stage's value. */
export interface CallContext {
  /** The model's id for the call: unique within a turn, but repeated across turns and agents. */
  readonly callId: string;
  /** The harness's key for this execution: unique across turns, agents and processes (UUIDv7). */
  readonly callKey: string;
  /** The run the call belongs to. */
  readonly run: CallRun;
  readonly toolName: string;
  /** The tool the call started with; `undefined` when the name matched no tool (`TOOL_NOT_FOUND`). */
  readonly tool: RegisteredTool | undefined;
  /**
   * The arguments as the model sent them: the JSON string, or (for an object) the pipeline's own
   * frozen copy of it once stage 1 has read it; never the caller's object.
   */
  readonly rawArguments: ToolCall['arguments'];
  /** The caller's signal, if any (the body gets the fused per-call signal as `exec.signal`). */
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
  readonly sandbox: Sandbox | undefined;
}
