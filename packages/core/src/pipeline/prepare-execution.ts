import type { ApprovalMemory } from '../policy/approval.js';
import type { ToolCall } from '../tools/call-context.js';
import { deepFreeze } from '../deep-freeze.js';
import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import type { Preparation } from './stage-values.js';
import { invalidArguments, parseArguments } from './tool-arguments.js';
import { failureResult } from '../tools/tool-result.js';

const MAX_LISTED_TOOLS = 100;

/**
 * Stage 1: resolve the tool, parse and validate the arguments, run the prepareExecution taps
 * (each rewrite validated again), then the guards, then approval (through `approvals`, when the run
 * remembers decisions). Yields `ready` with the final arguments, or the call already settled. A tap
 * or guard that throws rejects with `HookFailure`.
 */
export async function prepareExecution(
  runtime: HarnessRuntime,
  context: PipelineContext,
  call: ToolCall,
  approvals: ApprovalMemory | undefined,
): Promise<Preparation> {
  const tool = context.tool;
  if (tool === undefined) return { status: 'settled', result: toolNotFound(runtime, context) };

  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return { status: 'settled', result: invalidArguments(context, [`(root): ${parsed.problem}`]) };
  const validation = await tool.arguments.validate(parsed.value);
  if (!validation.ok) return { status: 'settled', result: invalidArguments(context, validation.issues) };

  let preparation: Preparation = { status: 'ready', arguments: validation.value as Record<string, unknown> };
  if (hasTaps(runtime.hooks.prepareExecution)) {
    preparation = (await runtime.hooks.prepareExecution.promise(preparation, context)) as Preparation;
  }
  if (preparation.status !== 'ready' || runtime.guards.size === 0) return preparation;

  const { guards, approval, approvalTimeoutMs } = runtime;
  const guardCall = { callId: context.callId, toolName: context.toolName, tier: tool.tier, arguments: preparation.arguments, files: tool.files, source: tool.source };
  const verdict = await guards.evaluate(guardCall, { signal: context.signal, sandbox: context.sandbox, logger: context.logger });
  if (verdict.decision === 'allow') return preparation;
  if (verdict.decision === 'deny') {
    const reason = verdict.reason ? `: ${verdict.reason}` : '.';
    return { status: 'settled', result: failureResult(metaOf(context), 'DENIED', `Policy "${verdict.by}" denied this ${context.toolName} call${reason}`) };
  }

  // The person sees exactly what the body will get: freeze it so nothing can change it after approval.
  const shown = deepFreeze(preparation.arguments);
  const answer = await approval.request(
    { callId: context.callId, toolName: context.toolName, tier: tool.tier, arguments: shown, reason: verdict.reason, askedBy: verdict.by },
    { timeoutMs: approvalTimeoutMs, signal: context.signal, memory: approvals },
  );
  if (!answer.approved) return { status: 'settled', result: failureResult(metaOf(context), 'DENIED', answer.message) };
  return { status: 'ready', arguments: shown };
}

function toolNotFound(runtime: HarnessRuntime, context: PipelineContext) {
  const names = runtime.tools.names();
  const listed = names.slice(0, MAX_LISTED_TOOLS).join(', ');
  const more = names.length > MAX_LISTED_TOOLS ? ` and ${names.length - MAX_LISTED_TOOLS} more` : '';
  const available = names.length === 0 ? 'No tools are available.' : `Available tools: ${listed}${more}.`;
  return failureResult(metaOf(context), 'TOOL_NOT_FOUND', `There is no tool named "${context.toolName}". ${available}`);
}
