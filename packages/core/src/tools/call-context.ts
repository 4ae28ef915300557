import type { Logger } from '../logger.js';
import type { RegisteredTool } from './tool-registry.js';
import type { Sandbox } from '../policy/sandbox.js';

/** A tool call as a model sends it: arguments as the raw JSON string, or an already parsed object. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string | Readonly<Record<string, unknown>>;
}

/** Parsed and validated arguments. */
export type ToolArguments = Readonly<Record<string, unknown>>;

/** The one context object every tap of every stage receives for a call, next to the stage's value. */
export interface CallContext {
  readonly callId: string;
  readonly toolName: string;
  /** The tool the call started with; `undefined` when the name matched no tool (`TOOL_NOT_FOUND`). */
  readonly tool: RegisteredTool | undefined;
  /** The arguments exactly as the model sent them. */
  readonly rawArguments: ToolCall['arguments'];
  /** The caller's signal, if any (the body gets the fused per-call signal as `exec.signal`). */
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
  readonly sandbox: Sandbox | undefined;
}
