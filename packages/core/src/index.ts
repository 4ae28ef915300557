export { createHarness, DEFAULT_DISPOSE_TIMEOUT_MS, DEFAULT_HOOK_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from './harness.js';
export type { Harness, HarnessOptions, ExecuteOptions, ExecuteManyOptions, ProgressListener } from './harness.js';

export { defineTool } from './tools/define-tool.js';
export type {
  FileAccess,
  FileAccessVerdict,
  FileAction,
  ToolDefinition,
  ToolExecution,
  ToolExample,
  ToolFiles,
  ToolOutput,
  ToolParameters,
  ToolPathArgument,
  ToolRetryPolicy,
  ToolTier,
} from './tools/define-tool.js';
export type { InferJsonSchema, InferParameters } from './tools/infer-schema.js';
export type { ToolProgress } from './tools/tool-progress.js';
export { checkParts, describeImage, imageBytes, textOfParts } from './tools/content-part.js';
export type { Content, ContentPart, ImagePart, ResourcePart, TextPart } from './tools/content-part.js';
export type { JsonSchema, StandardJsonSchema } from './tools/schema-validator.js';

export { ToolRegistry } from './tools/tool-registry.js';
export type { RegisteredTool, RegisteredToolFiles, RegisterOptions, ToolSchema, ToolSource } from './tools/tool-registry.js';
export { NAMESPACE_SEPARATOR, namespacedName } from './tools/namespaced-name.js';

export { isToolCallError, MAX_FAILURE_MESSAGE_CHARS, ToolCallError } from './tools/tool-result.js';
export type { ToolError, ToolErrorCode, ToolFailure, ToolResult, ToolSuccess } from './tools/tool-result.js';

export { HarnessError, isHarnessError } from './harness-error.js';
export type { HarnessErrorCode } from './harness-error.js';

export { STAGES } from './plugins/hooks.js';
export type { HarnessHooks } from './plugins/hooks.js';
export type { StageName } from './plugins/hook-failure.js';
export type { CallContext, CallRun, ToolArguments, ToolCall } from './tools/call-context.js';
export { MAX_ARGUMENT_DEPTH } from './pipeline/tool-arguments.js';
export type { Dispatch, Preparation, PrepareAction, ResultAction } from './pipeline/stage-values.js';
export type { CallEvent, CallStage } from './pipeline/call-event.js';

export { definePlugin, isPlugin } from './plugins/define-plugin.js';
export type { Plugin, PluginContext, PluginHook, PluginHooks, TapOptions } from './plugins/define-plugin.js';
export type { Guard, GuardCall, GuardContext, GuardDecision, GuardVerdict } from './policy/guards.js';
export type { ApprovalKey, ApprovalMemory, ApprovalOutcome, ApprovalRequest, ApprovalResponder, ApprovalResponse, PendingApprovalRequest, PluginApprovalRequest } from './policy/approval.js';
export type { AwaitingApproval } from './agent/awaiting-approval.js';
export type { StartingToolCall, ToolCallJournal } from './pipeline/tool-call-journal.js';
export type { PathIntent, PathResolution, Sandbox } from './policy/sandbox.js';
export { PROTECTED_PATHS, protectedPathGlobs } from './policy/protected-paths.js';
export type { ProtectedPath } from './policy/protected-paths.js';

export type { AsyncDisposer, Disposer } from './disposer.js';
export type { Logger } from './logger.js';
export { renderValue } from './tools/render-content.js';
// Freezing a value deeply: a tool's deep-frozen value is kept as it is by the pipeline's snapshot.
export { deepFreeze } from './deep-freeze.js';
// Waiting that a signal can end: what retry plugins and model adapters are made of.
export { abortableSleep } from './abortable-sleep.js';
export { raceAbort } from './race-abort.js';

export type {
  AssistantMessage,
  AssistantPart,
  AssistantTextPart,
  CacheBreakpoint,
  CacheOption,
  FinishReason,
  LanguageModel,
  Message,
  ModelCallOptions,
  ModelMetadata,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelToolCall,
  ProviderData,
  ReasoningOption,
  ReasoningPart,
  SystemMessage,
  ToolCallPart,
  ToolChoice,
  ToolMessage,
  Usage,
  UserMessage,
} from './agent/model.js';
// Helpers for adapters: the derived fields of parts, a provider's own data, usage and cost.
export { ownProviderData, partsSummary, withToolCalls } from './agent/assistant-parts.js';
export type { PartsSummary } from './agent/assistant-parts.js';
export { cacheReadOf } from './agent/add-usage.js';
export { costOf } from './agent/budget.js';
export { checkCallOptions } from './agent/merge-call-options.js';
export { metadataFor } from './agent/model-metadata.js';

// The agent loop lives in its own folder; its index lists its exports.
export * from './agent/index.js';

// The session interface the agent loop records through. The stores (memory, file) live in @weir/session.
export type { AppendOptions, Session, SessionRecovery } from './agent/session.js';
export { SESSION_RECORD_VERSION } from './agent/session-record.js';
export type { SessionEntry, SessionMeta, SessionRecord } from './agent/session-record.js';
export { INTERRUPTED_CALL_CONTENT, UNSTARTED_CALL_CONTENT } from './agent/session-history.js';
export type { InterruptedCall, RebuildHistoryOptions, SessionHistory } from './agent/session-history.js';
export { currentRecords } from './agent/current-records.js';
export { rewindTarget, sessionTurns } from './agent/session-turns.js';
export type { SessionTurn } from './agent/session-turns.js';
export { ApprovalLedger } from './agent/approval-ledger.js';
export type { ApprovalDecisionRecord } from './agent/approval-ledger.js';

export { importPlugin, loadPlugins } from './plugins/import-plugin.js';
export type { ImportPluginOptions } from './plugins/import-plugin.js';

export { argumentsHash, canonicalJson } from './canonical-json.js';
export { redactUrl } from './redact-url.js';

// The pieces of an HTTP model adapter: deadline, idle timer, retries with backoff and server hints, redaction.
export * from './model-http/index.js';
