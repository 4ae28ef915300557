/**
 * The attribute, span and metric names this package writes. The `gen_ai.*` and `error.type` names
 * are the OpenTelemetry GenAI semantic conventions as published in semantic-conventions v1.41.0
 * (status: Development), plus `gen_ai.execute_tool.duration` from the GenAI conventions' own
 * repository; the `weir.*` names are weir's own, for what the conventions have no name for.
 */
export const SEMCONV_VERSION = '1.41.0';

export const ATTR = Object.freeze({
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  agentName: 'gen_ai.agent.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  // weir's own.
  tier: 'weir.tool.tier',
  server: 'weir.tool.server',
  plugin: 'weir.tool.plugin',
  attempts: 'weir.tool.attempts',
  callKey: 'weir.call.key',
  queuedMs: 'weir.call.queued_ms',
  runId: 'weir.run.id',
  step: 'weir.step',
  stopReason: 'weir.turn.stop_reason',
  /** On the `chat` span of a compaction's summary call: how many messages it replaced. */
  compacted: 'weir.compaction.replaced',
  steps: 'weir.turn.steps',
  durationMs: 'weir.duration_ms',
  guardName: 'weir.guard.name',
  guardDecision: 'weir.guard.decision',
  guardReason: 'weir.guard.reason',
  approvalAskedBy: 'weir.approval.asked_by',
  approvalDecision: 'weir.approval.decision',
  approvalWaitMs: 'weir.approval.wait_ms',
  attempt: 'weir.attempt',
  attemptOk: 'weir.attempt.ok',
  outcome: 'weir.outcome',
  unloaded: 'weir.unloaded',
} as const);

export const METRIC = Object.freeze({
  toolDuration: 'gen_ai.execute_tool.duration',
  operationDuration: 'gen_ai.client.operation.duration',
  tokenUsage: 'gen_ai.client.token.usage',
  turnTokens: 'weir.turn.token.usage',
  approvalsAsked: 'weir.approval.asked',
  approvalsAnswered: 'weir.approval.answered',
  approvalWait: 'weir.approval.duration',
} as const);
