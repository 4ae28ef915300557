import type { ModelResponse, ModelStreamEvent } from '@weir/core';

/**
 * What reads one answer off the wire, whichever API it speaks: Chat Completions chunks
 * (`TurnAccumulator`) or Responses API events (`ResponsesTurn`). The transport (`readTurn`,
 * `readSseTurn`) feeds it and asks it when the answer is whole.
 */
export interface TurnReader {
  /** True once the answer may be returned. */
  readonly complete: boolean;
  /** True once the provider's last event came: nothing after it needs reading. */
  readonly ended: boolean;
  /** Set when the provider said the turn failed (`response.failed`): an `{ error }` payload to throw. */
  readonly failure: unknown;
  /** `data: [DONE]` arrived. */
  markDone(): void;
  /** One parsed data event (`event` is its SSE event name); returns the deltas to pass on. Throws `OpenAIError`. */
  acceptChunk(chunk: unknown, event?: string): ModelStreamEvent[];
  /** One whole, non-streamed answer; returns its content as deltas. Throws `OpenAIError`. */
  acceptCompletion(body: unknown): ModelStreamEvent[];
  /** The content is over: deltas held back until now. */
  flush(): ModelStreamEvent[];
  /** The answer; call only when `complete`. Never throws. */
  response(): ModelResponse;
}
