import { HarnessError } from '../harness-error.js';
import type { FinishReason, LanguageModel, ModelRequest, ModelResponse } from './model.js';
import { raceAbort } from '../race-abort.js';

const FINISH_REASONS: ReadonlySet<string> = new Set<FinishReason>(['stop', 'tool_calls', 'length', 'content_filter', 'error']);

/**
 * One model call: `stream` when `onTextDelta` is given and the model can stream, `complete`
 * otherwise. Rejects with the signal's reason when it aborts (even if the adapter ignores the
 * signal), with `HarnessError('INVALID_MODEL_RESPONSE')` for an answer that breaks the spec, and
 * with whatever the adapter rejected with otherwise.
 */
export async function callModel(
  model: LanguageModel,
  request: ModelRequest,
  onTextDelta: ((text: string) => void) | undefined,
): Promise<ModelResponse> {
  const response =
    onTextDelta !== undefined && typeof model.stream === 'function'
      ? await streamModel(model, request, onTextDelta)
      : await raceAbort(Promise.resolve(model.complete(request)), request.signal);
  return checkResponse(model, response);
}

async function streamModel(model: LanguageModel, request: ModelRequest, onTextDelta: (text: string) => void): Promise<ModelResponse> {
  const iterator = model.stream!(request)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceAbort(iterator.next(), request.signal);
      if (next.done === true) {
        throw new HarnessError('INVALID_MODEL_RESPONSE', `Model ${model.id}: the stream ended without a "finish" event.`);
      }
      const event = next.value;
      if (event.type === 'text-delta') onTextDelta(event.text);
      else if (event.type === 'finish') return event.response;
    }
  } finally {
    // Leaving early (finish, abort or error) closes the adapter's stream, as a `for await` break would.
    // Not awaited: an adapter stuck in a pending read must not hold the turn.
    Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

/** Cheap shape checks, so a broken adapter fails at the step that broke, with its name. */
function checkResponse(model: LanguageModel, response: ModelResponse): ModelResponse {
  const problem =
    typeof response !== 'object' || response === null
      ? `answered ${response === null ? 'null' : typeof response} instead of a ModelResponse`
      : typeof response.text !== 'string'
        ? 'answered without a string `text` (use "" for none)'
        : !Array.isArray(response.toolCalls)
          ? 'answered without a `toolCalls` array (use [] for none)'
          : !FINISH_REASONS.has(response.finishReason)
            ? `answered with an unknown finishReason ${JSON.stringify(response.finishReason)}`
            : response.parts !== undefined && !Array.isArray(response.parts)
              ? 'answered with `parts` that are not an array'
              : undefined;
  if (problem !== undefined) throw new HarnessError('INVALID_MODEL_RESPONSE', `Model ${model.id} ${problem}.`);
  return response;
}
