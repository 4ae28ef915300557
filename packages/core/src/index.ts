export { createHarness, DEFAULT_TOOL_TIMEOUT_MS } from './harness.js';
export type { Harness, HarnessOptions, ExecuteOptions, ExecuteManyOptions } from './harness.js';

export { defineTool } from './define-tool.js';
export type { ToolDefinition, ToolExecution, ToolExample, ToolOutput, ToolParameters, ToolRetryPolicy, ToolTier } from './define-tool.js';
export type { InferJsonSchema, InferParameters } from './infer-schema.js';
export type { JsonSchema, StandardJsonSchema } from './schema-validator.js';

export { ToolRegistry } from './tool-registry.js';
export type { RegisteredTool, ToolSchema } from './tool-registry.js';

export { ToolCallError } from './tool-result.js';
export type { ToolError, ToolErrorCode, ToolFailure, ToolResult, ToolSuccess } from './tool-result.js';

export { HarnessError, isHarnessError } from './harness-error.js';
export type { HarnessErrorCode } from './harness-error.js';

export { STAGES } from './hooks.js';
export type { HarnessHooks } from './hooks.js';
export type { StageName } from './hook-failure.js';
export type { CallContext, ToolArguments, ToolCall } from './call-context.js';
export type { Dispatch, Preparation, PrepareAction, ResultAction } from './stage-values.js';

export { definePlugin, isPlugin } from './define-plugin.js';
export type { Plugin, PluginContext, PluginHook, PluginHooks, TapOptions } from './define-plugin.js';
export type { Guard, GuardCall, GuardContext, GuardDecision, GuardVerdict } from './guards.js';
export type { ApprovalKey, ApprovalMemory, ApprovalRequest, ApprovalResponder, ApprovalResponse } from './approval.js';
export type { StartingToolCall, ToolCallJournal } from './tool-call-journal.js';
export type { PathIntent, PathResolution, Sandbox } from './sandbox.js';

export type { AsyncDisposer, Disposer } from './disposer.js';
export type { Logger } from './logger.js';
export { renderValue } from './render-content.js';

export type {
  AssistantMessage,
  FinishReason,
  LanguageModel,
  Message,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelToolCall,
  SystemMessage,
  ToolMessage,
  Usage,
  UserMessage,
} from './model.js';

// The agent loop and sessions live in their own folders; each folder's index lists its exports.
export * from './agent/index.js';
export * from './session/index.js';

export { importPlugin, loadPlugins } from './import-plugin.js';
export type { ImportPluginOptions } from './import-plugin.js';

export { argumentsHash, canonicalJson } from './canonical-json.js';
