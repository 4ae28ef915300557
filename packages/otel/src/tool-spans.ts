import type { Context, Span } from '@opentelemetry/api';
import type { CallContext, CallEvent, Dispatch } from '@weir/core';
import { errorType, OTHER_ERROR_TYPE } from './error-type.js';
import { argumentsText } from './content.js';
import { ATTR } from './semconv.js';
import type { TracingSettings } from './tracing-settings.js';
import { fail } from './turn-spans.js';
import type { TurnSpans } from './turn-spans.js';

interface OpenCall {
  readonly span: Span;
  /** The span's context: the body runs in it, so spans the body makes are its children. */
  readonly context: Context;
}

/**
 * One `execute_tool {name}` span per call, from the `call` lifecycle: started at `start` (a child
 * of its step's `chat` span inside a traced turn, else of the caller's active context), a span event
 * per timed piece, guard verdict, approval and attempt, ended at `settle` with the outcome.
 */
export class ToolSpans {
  readonly #settings: TracingSettings;
  readonly #turns: TurnSpans;
  readonly #open = new Map<CallContext, OpenCall>();
  /** Open spans by call id, for log lines that name a call (`logFields`). */
  readonly #byCallId = new Map<string, Span>();

  constructor(settings: TracingSettings, turns: TurnSpans) {
    this.#settings = settings;
    this.#turns = turns;
  }

  /** The open span of the call with this id, if any. */
  spanOfCall(callId: string): Span | undefined {
    return this.#byCallId.get(callId);
  }

  readonly onCall = (event: CallEvent, context: CallContext): void => {
    if (event.type === 'start') return this.#start(event.queuedMs, context);
    // Metrics whether or not the span is recorded (a sampled-out call still counts).
    if (event.type === 'settle') this.#measure(event, context);
    else if (event.type === 'approval-asked') this.#settings.instruments.approvalsAsked.add(1, { [ATTR.toolName]: context.toolName });
    else if (event.type === 'approval-answered') this.#measureApproval(event.approved, event.durationMs, context);
    const open = this.#open.size === 0 ? undefined : this.#open.get(context);
    if (open === undefined) return;
    const { span } = open;
    switch (event.type) {
      case 'stage':
        span.addEvent(`weir.${event.stage}`, { [ATTR.durationMs]: event.durationMs });
        return;
      case 'guard':
        span.addEvent(
          'weir.guard',
          this.#settings.captureContent && event.reason !== undefined
            ? { [ATTR.guardName]: event.guard, [ATTR.guardDecision]: event.decision, [ATTR.guardReason]: event.reason, [ATTR.durationMs]: event.durationMs }
            : { [ATTR.guardName]: event.guard, [ATTR.guardDecision]: event.decision, [ATTR.durationMs]: event.durationMs },
        );
        return;
      case 'approval-asked':
        span.addEvent('weir.approval.asked', event.askedBy === undefined ? {} : { [ATTR.approvalAskedBy]: event.askedBy });
        return;
      case 'approval-answered': {
        const decision = event.approved ? 'allow' : 'deny';
        span.addEvent('weir.approval.answered', { [ATTR.approvalDecision]: decision, [ATTR.durationMs]: event.durationMs });
        span.setAttribute(ATTR.approvalDecision, decision);
        span.setAttribute(ATTR.approvalWaitMs, event.durationMs);
        return;
      }
      case 'attempt':
        span.addEvent(
          'weir.attempt',
          event.ok
            ? { [ATTR.attempt]: event.attempt, [ATTR.attemptOk]: true, [ATTR.durationMs]: event.durationMs }
            : { [ATTR.attempt]: event.attempt, [ATTR.attemptOk]: false, [ATTR.errorType]: errorType(event.error), [ATTR.durationMs]: event.durationMs },
        );
        return;
      case 'settle':
        this.#settle(open, event, context);
        return;
    }
  };

  /** An execute tap's wrapper: the body runs with the call's span active (its own spans nest under it). */
  readonly wrapDispatch = (dispatch: Dispatch, context: CallContext): Dispatch | undefined => {
    const open = this.#open.get(context);
    if (open === undefined) return undefined;
    const { api } = this.#settings;
    return (args, exec) => api.context.with(open.context, dispatch, undefined, args, exec);
  };

  /** Ends every open span (the plugin is unloading). */
  endAll(): void {
    for (const { span } of this.#open.values()) {
      span.setAttribute(ATTR.unloaded, true);
      span.end();
    }
    this.#open.clear();
    this.#byCallId.clear();
  }

  #start(queuedMs: number, context: CallContext): void {
    const { api, tracer, captureContent } = this.#settings;
    // Inside a traced turn the call's step is the parent; the run is read only then (a bare call has none to make).
    const runId = this.#turns.size > 0 ? context.run.id : undefined;
    const inTurn = runId === undefined ? undefined : this.#turns.parentOf(runId);
    const parent = inTurn ?? api.context.active();
    const tool = context.tool;
    const label = toolLabel(context, captureContent);
    const span = tracer.startSpan(
      context.tool === undefined && !captureContent ? 'execute_tool' : `execute_tool ${label}`,
      {
        kind: api.SpanKind.INTERNAL,
        attributes: {
          [ATTR.operationName]: 'execute_tool',
          [ATTR.toolName]: label,
          [ATTR.toolCallId]: context.callId,
          [ATTR.toolType]: tool?.source.server === undefined ? 'function' : 'extension',
          [ATTR.queuedMs]: queuedMs,
        },
      },
      parent,
    );
    if (!span.isRecording()) {
      // Not recorded (no SDK registered, or sampled out): nothing to add to it or to end, and the
      // body runs in the caller's context. The API's no-op costs no more than this.
      return;
    }
    // The key is made on first read: only a recorded span asks for it.
    span.setAttribute(ATTR.callKey, context.callKey);
    if (inTurn !== undefined) span.setAttribute(ATTR.runId, runId!);
    if (tool !== undefined) {
      span.setAttribute(ATTR.tier, tool.tier);
      span.setAttribute(ATTR.toolDescription, tool.description);
      if (tool.source.plugin !== undefined) span.setAttribute(ATTR.plugin, tool.source.plugin);
      if (tool.source.server !== undefined) span.setAttribute(ATTR.server, tool.source.server);
    }
    if (captureContent) span.setAttribute(ATTR.toolCallArguments, argumentsText(context.rawArguments));
    this.#open.set(context, { span, context: api.trace.setSpan(parent, span) });
    this.#byCallId.set(context.callId, span);
  }

  #settle(open: OpenCall, event: Extract<CallEvent, { type: 'settle' }>, context: CallContext): void {
    this.#open.delete(context);
    if (this.#byCallId.get(context.callId) === open.span) this.#byCallId.delete(context.callId);
    const { result } = event;
    const { span } = open;
    span.setAttribute(ATTR.attempts, result.attempts);
    if (this.#settings.captureContent) span.setAttribute(ATTR.toolCallResult, result.content);
    if (!result.ok) fail(this.#settings, span, errorType(result.error.code), result.error.message);
    span.end();
  }

  #measure(event: Extract<CallEvent, { type: 'settle' }>, context: CallContext): void {
    const { result } = event;
    const tool = toolLabel(context, this.#settings.captureContent);
    const type = result.ok ? undefined : errorType(result.error.code);
    this.#settings.instruments.toolDuration.record(
      event.durationMs / 1000,
      type === undefined
        ? { [ATTR.operationName]: 'execute_tool', [ATTR.toolName]: tool, [ATTR.outcome]: 'ok' }
        : { [ATTR.operationName]: 'execute_tool', [ATTR.toolName]: tool, [ATTR.outcome]: type, [ATTR.errorType]: type },
    );
  }

  #measureApproval(approved: boolean, durationMs: number, context: CallContext): void {
    const { instruments } = this.#settings;
    const attributes = { [ATTR.toolName]: toolLabel(context, this.#settings.captureContent), [ATTR.approvalDecision]: approved ? 'allow' : 'deny' };
    instruments.approvalsAnswered.add(1, attributes);
    instruments.approvalWait.record(durationMs / 1000, attributes);
  }
}

/**
 * The tool name a span or a metric may carry: a registered tool's own name; a name the model
 * invented (no such tool) only with `captureContent` (it is model output, so content), cut to 64
 * characters; else `_OTHER`.
 */
function toolLabel(context: CallContext, captureContent: boolean): string {
  if (context.tool !== undefined) return context.toolName;
  return captureContent ? context.toolName.slice(0, 64) : OTHER_ERROR_TYPE;
}
