import type { Context, Span } from '@opentelemetry/api';
import type { ModelCallRun, TurnEvent, TurnInfo, Usage } from '@weir/core';
import { errorType } from './error-type.js';
import { messagesJson, responseJson, userTextJson } from './content.js';
import { splitModelId } from './model-id.js';
import { ATTR } from './semconv.js';
import type { TracingSettings } from './tracing-settings.js';

interface OpenTurn {
  readonly span: Span;
  readonly context: Context;
  readonly provider: string;
  readonly model: string;
  /** The model call under way, then the last one that answered: its tool calls are its children. */
  step: OpenStep | undefined;
}

interface OpenStep {
  readonly span: Span;
  readonly context: Context;
  readonly index: number;
  /** The model this call went to: a step's own (`prepareStep`) may differ from the turn's. */
  readonly provider: string;
  readonly model: string;
  open: boolean;
}

/**
 * `invoke_agent {agent}` per turn (parent: the context active when the turn started) and
 * `chat {model}` per model call, a child of its turn. The tool calls a model call asked for are
 * children of its `chat` span (`parentOf`), so the tree reads turn, step, calls, in call order.
 * The model call itself runs in its `chat` span's context (`wrapModelCall`).
 */
export class TurnSpans {
  readonly #settings: TracingSettings;
  readonly #turns = new Map<string, OpenTurn>();

  constructor(settings: TracingSettings) {
    this.#settings = settings;
  }

  /** Open turns, for `parentOf` to skip the lookup (and the run) when there are none. */
  get size(): number {
    return this.#turns.size;
  }

  /** The context a tool call of run `runId` starts its span in: its step's, else its turn's; `undefined` outside a traced turn. */
  parentOf(runId: string): Context | undefined {
    const turn = this.#turns.get(runId);
    return turn === undefined ? undefined : (turn.step?.context ?? turn.context);
  }

  /**
   * The `modelCall` wrap: the call runs with its `chat` span as the active context, so a span a
   * provider's own instrumentation starts inside the model's request or stream is its child.
   * Outside a traced turn (no open step) the call is left as it is.
   */
  readonly wrapModelCall = (run: ModelCallRun, info: TurnInfo): ModelCallRun | undefined => {
    const step = this.#turns.get(info.run.id)?.step;
    if (step === undefined || !step.open) return undefined;
    const { api } = this.#settings;
    return () => api.context.with(step.context, run);
  };

  readonly onTurn = (event: TurnEvent, info: TurnInfo): void => {
    const { api, tracer, captureContent, agentName, instruments } = this.#settings;
    switch (event.type) {
      case 'turn-start': {
        const { provider, model } = splitModelId(info.modelId);
        const parent = api.context.active();
        const span = tracer.startSpan(
          `invoke_agent ${agentName}`,
          {
            kind: api.SpanKind.INTERNAL,
            attributes: {
              [ATTR.operationName]: 'invoke_agent',
              [ATTR.agentName]: agentName,
              [ATTR.providerName]: provider,
              [ATTR.requestModel]: model,
              [ATTR.runId]: info.run.id,
            },
          },
          parent,
        );
        if (captureContent && event.text !== '') span.setAttribute(ATTR.inputMessages, userTextJson(event.text));
        this.#turns.set(info.run.id, { span, context: api.trace.setSpan(parent, span), provider, model, step: undefined });
        return;
      }
      case 'model-call-start': {
        const turn = this.#turns.get(info.run.id);
        if (turn === undefined) return;
        const { provider, model } = event.modelId === info.modelId ? turn : splitModelId(event.modelId);
        const span = tracer.startSpan(
          `chat ${model}`,
          {
            kind: api.SpanKind.CLIENT,
            attributes: { [ATTR.operationName]: 'chat', [ATTR.providerName]: provider, [ATTR.requestModel]: model, [ATTR.step]: event.step },
          },
          turn.context,
        );
        if (captureContent && span.isRecording()) span.setAttribute(ATTR.inputMessages, messagesJson(event.request.messages));
        turn.step = { span, context: api.trace.setSpan(turn.context, span), index: event.step, provider, model, open: true };
        return;
      }
      case 'model-call-end': {
        const turn = this.#turns.get(info.run.id);
        const step = turn?.step;
        if (turn === undefined || step === undefined || !step.open) return;
        const { response } = event;
        const span = step.span;
        span.setAttribute(ATTR.finishReasons, [response.finishReason]);
        // A composite model (fallbackModel) says which of its models answered.
        if (response.model !== undefined) span.setAttribute(ATTR.responseModel, splitModelId(response.model).model);
        setUsage(span, response.usage);
        if (captureContent && span.isRecording()) span.setAttribute(ATTR.outputMessages, responseJson(response));
        span.end();
        step.open = false;
        const attributes = { [ATTR.operationName]: 'chat', [ATTR.providerName]: step.provider, [ATTR.requestModel]: step.model };
        instruments.operationDuration.record(event.durationMs / 1000, attributes);
        if (response.usage !== undefined) {
          instruments.tokenUsage.record(response.usage.inputTokens, { ...attributes, [ATTR.tokenType]: 'input' });
          instruments.tokenUsage.record(response.usage.outputTokens, { ...attributes, [ATTR.tokenType]: 'output' });
        }
        return;
      }
      case 'model-call-error': {
        const turn = this.#turns.get(info.run.id);
        const step = turn?.step;
        if (turn === undefined || step === undefined || !step.open) return;
        const code = event.aborted ? 'ABORTED' : errorType(event.error);
        fail(this.#settings, step.span, code, event.error);
        step.span.end();
        step.open = false;
        instruments.operationDuration.record(event.durationMs / 1000, {
          [ATTR.operationName]: 'chat',
          [ATTR.providerName]: step.provider,
          [ATTR.requestModel]: step.model,
          [ATTR.errorType]: code,
        });
        return;
      }
      case 'turn-end': {
        const turn = this.#turns.get(info.run.id);
        if (turn === undefined) return;
        this.#turns.delete(info.run.id);
        const { result } = event;
        turn.span.setAttribute(ATTR.stopReason, result.stopReason);
        turn.span.setAttribute(ATTR.steps, result.steps.length);
        setUsage(turn.span, result.usage);
        if (captureContent && result.text !== '' && turn.span.isRecording()) {
          turn.span.setAttribute(ATTR.outputMessages, JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: result.text }] }]));
        }
        turn.span.end();
        if (result.usage !== undefined) {
          const attributes = { [ATTR.operationName]: 'invoke_agent', [ATTR.agentName]: agentName, [ATTR.providerName]: turn.provider, [ATTR.requestModel]: turn.model };
          instruments.turnTokens.record(result.usage.inputTokens, { ...attributes, [ATTR.tokenType]: 'input' });
          instruments.turnTokens.record(result.usage.outputTokens, { ...attributes, [ATTR.tokenType]: 'output' });
        }
        return;
      }
      case 'compaction': {
        // The summary call is told after it ended: its span is drawn back to when it began.
        const turn = this.#turns.get(info.run.id);
        if (turn === undefined) return;
        const { provider, model } = splitModelId(event.modelId);
        const attributes = { [ATTR.operationName]: 'chat', [ATTR.providerName]: provider, [ATTR.requestModel]: model };
        // Wall-clock milliseconds, as the SDK starts its spans, so this one lines up with its siblings.
        const end = Date.now();
        const span = tracer.startSpan(
          `chat ${model}`,
          { kind: api.SpanKind.CLIENT, startTime: end - event.durationMs, attributes: { ...attributes, [ATTR.step]: event.step, [ATTR.compacted]: event.replaced } },
          turn.context,
        );
        span.setAttribute(ATTR.finishReasons, [event.response.finishReason]);
        setUsage(span, event.response.usage);
        span.end(end);
        instruments.operationDuration.record(event.durationMs / 1000, attributes);
        if (event.response.usage !== undefined) {
          instruments.tokenUsage.record(event.response.usage.inputTokens, { ...attributes, [ATTR.tokenType]: 'input' });
          instruments.tokenUsage.record(event.response.usage.outputTokens, { ...attributes, [ATTR.tokenType]: 'output' });
        }
        return;
      }
      case 'turn-error': {
        const turn = this.#turns.get(info.run.id);
        if (turn === undefined) return;
        this.#turns.delete(info.run.id);
        fail(this.#settings, turn.span, errorType(event.error), event.error);
        turn.span.end();
        return;
      }
    }
  };

  /** Ends every open span (the plugin is unloading): nothing is left open in the exporter's view. */
  endAll(): void {
    for (const turn of this.#turns.values()) {
      if (turn.step?.open === true) {
        turn.step.span.setAttribute(ATTR.unloaded, true);
        turn.step.span.end();
      }
      turn.span.setAttribute(ATTR.unloaded, true);
      turn.span.end();
    }
    this.#turns.clear();
  }
}

function setUsage(span: Span, usage: Usage | undefined): void {
  if (usage === undefined) return;
  span.setAttribute(ATTR.inputTokens, usage.inputTokens);
  span.setAttribute(ATTR.outputTokens, usage.outputTokens);
  const read = usage.cacheReadTokens ?? usage.cachedInputTokens;
  if (read !== undefined) span.setAttribute(ATTR.cacheReadInputTokens, read);
  if (usage.cacheWriteTokens !== undefined) span.setAttribute(ATTR.cacheCreationInputTokens, usage.cacheWriteTokens);
  if (usage.reasoningTokens !== undefined) span.setAttribute(ATTR.reasoningOutputTokens, usage.reasoningTokens);
}

/** Marks a span failed: `error.type` always; the message (free text) only with `captureContent`. */
export function fail(settings: TracingSettings, span: Span, code: string, error?: unknown): void {
  span.setAttribute(ATTR.errorType, code);
  const message = settings.captureContent ? (error instanceof Error ? error.message : typeof error === 'string' ? error : undefined) : undefined;
  span.setStatus(message === undefined ? { code: settings.api.SpanStatusCode.ERROR, message: code } : { code: settings.api.SpanStatusCode.ERROR, message });
}
