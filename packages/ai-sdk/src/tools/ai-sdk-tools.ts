import type { ApprovalMemory, CallRun, ExecuteOptions, Harness, RegisteredTool, ToolResult } from '@weir/core';
import { aiSdkSchema } from './ai-sdk-schema.js';
import { approvalsFromMessages } from './approvals-from-messages.js';
import { toModelOutput, type AiSdkToolOutput } from './to-model-output.js';
import { WeirToolError } from './weir-tool-error.js';

/** What the AI SDK hands a tool's `execute` (AI SDK 6 and 7 alike, the fields read here). */
export interface AiSdkExecutionOptions {
  readonly toolCallId: string;
  readonly abortSignal?: AbortSignal;
  readonly messages?: readonly unknown[];
}

/** One weir tool as an AI SDK tool: `generateText`, `streamText` and the SDK's agents call it. */
export interface AiSdkTool {
  readonly description: string;
  /**
   * An AI SDK `Schema` (see `AiSdkSchema`). Typed `any` because the SDK's `Schema` type is keyed by a
   * symbol each major declares for itself: no type written here is assignable to all of them, and
   * this package imports none of them.
   */
  readonly inputSchema: any;
  /** Runs the call through the weir pipeline; resolves to the weir result, throws `WeirToolError` for a failure. */
  readonly execute: (input: any, options: AiSdkExecutionOptions) => Promise<ToolResult>;
  readonly toModelOutput: (options: { readonly output: ToolResult }) => AiSdkToolOutput;
  /** Set only with `approval: 'ai-sdk'`. */
  readonly needsApproval?: (input: unknown, options: { readonly toolCallId: string }) => boolean;
}

export type AiSdkToolSet = Record<string, AiSdkTool>;

export interface AiSdkToolsOptions {
  /** The tools to expose, by weir name. Default: every tool registered now. An unknown name throws. */
  readonly names?: readonly string[];
  /**
   * Who asks the user when a guard asks for approval:
   * - `'weir'` (default): weir's approver (the responder a plugin or the caller set); the AI SDK
   *   sees a plain tool;
   * - `'ai-sdk'`: the AI SDK's `needsApproval` flow. The tools `needsApproval` picks (default: every
   *   tier but `read-only`) stop the SDK's loop with a `tool-approval-request`; once the application
   *   answers it approved, the call runs and a guard that asks is answered by that approval. Guards
   *   still run: a deny rule still denies, and a guard that asks about a call the SDK did not have
   *   approved still goes to weir's approver (none set: denied).
   */
  readonly approval?: 'weir' | 'ai-sdk';
  /** With `approval: 'ai-sdk'`: which tools the AI SDK asks about. Default: `tool.tier !== 'read-only'`. */
  readonly needsApproval?: (tool: RegisteredTool) => boolean;
  /** Approval decisions that outlive one call (a session's `ApprovalLedger`), as for `executeToolCall`. */
  readonly approvals?: ApprovalMemory;
  /** The run the calls belong to. Default: one fresh run per call. */
  readonly run?: CallRun;
}

/**
 * The harness's tools as an AI SDK `ToolSet`. Each `execute` is one `harness.executeToolCall` with
 * the SDK's `toolCallId` as the call id and its `abortSignal` as the signal, so every stage runs:
 * guards, approval, deadlines and retries, post-execute, rendering. A success resolves to the weir
 * `ToolResult` and the model reads its rendered content (images as `content` output); a failure
 * throws `WeirToolError`, which the SDK records as a `tool-error` and the model reads as the
 * result's error text. Throws `TypeError` on an unknown name or bad options.
 */
export function aiSdkTools(harness: Harness, options: AiSdkToolsOptions = {}): AiSdkToolSet {
  const names = options.names ?? harness.tools.names();
  if (!Array.isArray(names)) throw new TypeError(`aiSdkTools: names must be an array of tool names, got ${typeof names}.`);
  const approval = options.approval ?? 'weir';
  if (approval !== 'weir' && approval !== 'ai-sdk') throw new TypeError(`aiSdkTools: approval must be 'weir' or 'ai-sdk', got ${JSON.stringify(approval)}.`);
  const set: AiSdkToolSet = {};
  for (const name of names) {
    const tool = harness.tools.get(name);
    if (tool === undefined) throw new TypeError(`aiSdkTools: no tool named ${JSON.stringify(name)} is registered (registered: ${harness.tools.names().join(', ') || 'none'}).`);
    const asks = approval === 'ai-sdk' && (options.needsApproval ?? readsOnlyNot)(tool);
    set[name] = toAiSdkTool(harness, tool, options, asks);
  }
  return set;
}

function readsOnlyNot(tool: RegisteredTool): boolean {
  return tool.tier !== 'read-only';
}

function toAiSdkTool(harness: Harness, tool: RegisteredTool, options: AiSdkToolsOptions, asks: boolean): AiSdkTool {
  const { name } = tool;
  const { approvals, run } = options;
  const execute = async (input: unknown, sdk: AiSdkExecutionOptions): Promise<ToolResult> => {
    const callOptions: ExecuteOptions = {
      signal: sdk.abortSignal,
      approvals: asks ? approvalsFromMessages(sdk.messages, sdk.toolCallId, approvals) : approvals,
      run,
    };
    const result = await harness.executeToolCall({ id: sdk.toolCallId, name, arguments: input as Record<string, unknown> }, callOptions);
    if (!result.ok) throw new WeirToolError(result);
    return result;
  };
  const shared = {
    description: tool.description,
    inputSchema: aiSdkSchema(tool.jsonSchema),
    execute,
    toModelOutput: ({ output }: { readonly output: ToolResult }) => toModelOutput(output),
  };
  return Object.freeze(asks ? { ...shared, needsApproval: () => true } : shared);
}
