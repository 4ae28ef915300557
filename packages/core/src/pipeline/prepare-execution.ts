import { deepFreeze } from '../deep-freeze.js';
import type { HarnessRuntime } from '../harness-runtime.js';
import { hasTaps } from '../plugins/hooks.js';
import { argumentsHash } from '../canonical-json.js';
import type { ToolArguments } from '../tools/call-context.js';
import { failureResult } from '../tools/tool-result.js';
import { GuardRewriteRefused } from '../policy/guards.js';
import { awaitPlugin, isThenable } from './await-plugin.js';
import type { ExecuteOptions } from './execute-options.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { readyPreparation } from './ready-preparation.js';
import { since, tellStage, type CallObserver, type CallStage } from './call-event.js';
import type { Preparation } from './stage-values.js';
import { brokenSchema, invalidArguments, parseArguments } from './tool-arguments.js';

const MAX_LISTED_TOOLS = 100;
const MAX_ECHOED_NAME = 100;

/**
 * Stage 1: resolve the tool, parse and validate the arguments, run the prepareExecution taps
 * (each rewrite validated again), then the guards, then approval (through `approvals`, when the run
 * remembers decisions). Yields `ready` with the final arguments, or the call already settled. A tap
 * or guard that throws rejects with `HookFailure`; an abort while plugin code is awaited rejects
 * with `CallAborted`.
 *
 * The arguments are the pipeline's own from the first step (a fresh parse, or a copy of the
 * caller's object) and are deep-frozen once validated, whoever asks: what guards see, what the
 * approver is shown and what the body gets is one frozen object, and no plugin can change it
 * except through a `rewrite`, which is validated again.
 */
export async function prepareExecution(runtime: HarnessRuntime, context: PipelineContext, options: ExecuteOptions | undefined): Promise<Preparation> {
  const tool = context.tool;
  if (tool === undefined) return { status: 'settled', result: toolNotFound(runtime, context) };

  // Observed calls time each piece; an unobserved one reads no clock.
  const observe = context.observe;
  let began = context.startedAt;
  const parsed = parseArguments(context.rawArguments);
  if (!parsed.ok) return observed(observe, 'validate', began, { status: 'settled', result: invalidArguments(context, [`(root): ${parsed.problem}`]) });
  if (typeof context.rawArguments !== 'string') context.rawArguments = parsed.value;
  const checked = awaitPlugin(tool.arguments.validate(parsed.value), context.signal, { stage: 'prepareExecution', name: `${tool.name}'s parameters schema`, boundMs: Infinity });
  // Most schemas validate synchronously: awaiting a plain value would still cost a turn of the microtask queue.
  const validation = isThenable(checked) ? await checked : checked;
  if (!validation.ok) {
    const result = validation.schemaError === undefined ? invalidArguments(context, validation.issues) : brokenSchema(context, validation.schemaError);
    return observed(observe, 'validate', began, { status: 'settled', result });
  }

  let preparation: Preparation = readyPreparation(deepFreeze(validation.value as ToolArguments));
  if (observe !== undefined) began = tellStage(observe, 'validate', began);
  if (hasTaps(runtime.hooks.prepareExecution)) {
    preparation = (await runtime.hooks.prepareExecution.promise(preparation, context)) as Preparation;
    if (observe !== undefined) began = tellStage(observe, 'prepareExecution', began);
  }
  if (preparation.status !== 'ready') return preparation;
  const expected = checkExpectedHash(context, preparation, options?.expectedArgumentsHash);
  if (expected.status !== 'ready' || runtime.guards.size === 0) return cleared(context, expected);
  let approved = expected;

  const { guards, approval, approvalTimeoutMs } = runtime;
  const guardCall = Object.freeze({ callId: context.callId, callKey: context.callKey, toolName: context.toolName, tier: tool.tier, arguments: approved.arguments, files: tool.files, source: tool.source });
  let verdict;
  try {
    verdict = await guards.evaluate(guardCall, { signal: context.signal, sandbox: context.sandbox, logger: context.logger }, context.hookTimeoutMs, observe, (args, by) => revalidate(context, args, by));
  } catch (error) {
    if (!(error instanceof GuardRewriteRefused)) throw error;
    return observed(observe, 'guards', began, { status: 'settled', result: invalidArguments(context, error.issues, `guard ${error.by}`) });
  }
  if (observe !== undefined) began = tellStage(observe, 'guards', began);
  if (verdict.arguments !== undefined) approved = readyPreparation(verdict.arguments) as typeof expected;
  if (verdict.decision === 'allow') return cleared(context, approved);
  if (verdict.decision === 'deny') {
    const reason = verdict.reason ? `: ${verdict.reason}` : '.';
    return { status: 'settled', result: failureResult(metaOf(context), 'DENIED', `Policy "${verdict.by}" denied this ${context.toolName} call${reason}`) };
  }

  // The person sees exactly what the body will get: the one frozen object.
  observe?.({ type: 'approval-asked', askedBy: verdict.by, reason: verdict.reason });
  const answer = await approval.request(
    { callId: context.callId, callKey: context.callKey, toolName: context.toolName, tier: tool.tier, arguments: approved.arguments, reason: verdict.reason, askedBy: verdict.by },
    { timeoutMs: approvalTimeoutMs, signal: context.signal, memory: options?.approvals },
  );
  if (observe !== undefined) {
    const durationMs = since(began);
    observe({ type: 'approval-answered', approved: answer.approved, message: answer.approved ? undefined : answer.message, durationMs });
    observe({ type: 'stage', stage: 'approval', durationMs });
  }
  // A suspended call did not run and was not denied: it waits for an answer stored elsewhere.
  if (!answer.approved) return { status: 'settled', result: failureResult(metaOf(context), answer.suspended === true ? 'AWAITING_APPROVAL' : 'DENIED', answer.message) };
  return cleared(context, approved);
}

/** A guard's new arguments, parsed and validated as a tap's rewrite is, then frozen. */
async function revalidate(context: PipelineContext, args: unknown, by: string): Promise<ToolArguments> {
  const parsed = parseArguments(args as Record<string, unknown>);
  if (!parsed.ok) throw new GuardRewriteRefused(by, [`(root): ${parsed.problem}`]);
  const validation = await awaitPlugin(context.tool!.arguments.validate(parsed.value), context.signal, { stage: 'prepareExecution', name: `guard ${by}`, boundMs: Infinity });
  if (!validation.ok) throw new GuardRewriteRefused(by, validation.issues);
  return deepFreeze(validation.value as ToolArguments);
}

/** Tells the observer (if any) that `stage` ended, and passes the preparation on. */
function observed(observe: CallObserver | undefined, stage: CallStage, began: number, value: Preparation): Preparation {
  if (observe !== undefined) tellStage(observe, stage, began);
  return value;
}

function cleared(context: PipelineContext, preparation: Preparation): Preparation {
  if (preparation.status === 'ready') context.approvedArguments = preparation.arguments;
  return preparation;
}

/**
 * On the far side of a remote dispatch: the arguments this pipeline cleared must be the ones the
 * caller's pipeline approved (their hash travelled with the call), or the body does not run.
 */
function checkExpectedHash(context: PipelineContext, preparation: Preparation & { status: 'ready' }, expected: string | undefined): Preparation {
  if (expected === undefined) return preparation;
  let actual: string | undefined;
  try {
    actual = argumentsHash(preparation.arguments);
  } catch {
    actual = undefined;
  }
  if (actual === expected) return preparation;
  return {
    status: 'settled',
    result: failureResult(metaOf(context), 'ARGUMENTS_MISMATCH', `${context.toolName} was not run: its arguments are not the ones that were approved.`),
  };
}

function toolNotFound(runtime: HarnessRuntime, context: PipelineContext) {
  const names = runtime.tools.names();
  const listed = names.slice(0, MAX_LISTED_TOOLS).join(', ');
  const more = names.length > MAX_LISTED_TOOLS ? ` and ${names.length - MAX_LISTED_TOOLS} more` : '';
  const available = names.length === 0 ? 'No tools are available.' : `Available tools: ${listed}${more}.`;
  const name = context.toolName.length > MAX_ECHOED_NAME ? `${context.toolName.slice(0, MAX_ECHOED_NAME)}...` : context.toolName;
  return failureResult(metaOf(context), 'TOOL_NOT_FOUND', `There is no tool named "${name}". ${available}`);
}
