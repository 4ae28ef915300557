import type { Agent, AgentEvent, StopReason } from '@weir/core';
import type { ModelWaits } from '@weir/cli';

/** A line of the transcript: line breaks shown as ⏎, so each entry stays on one line. */
export const oneLine = (text: string) => text.replace(/\n/g, ' ⏎ ');

/** How the examples run their lines, and what they print beside the shared lines. */
export interface RunLinesOptions {
  /** Ctrl-C: aborts the running turn. */
  readonly signal: AbortSignal;
  /** Shows the model's retries and silences. */
  readonly progress: ModelWaits;
  /** Sees every event too, for what a step prints of its own (progress lines). */
  readonly onEvent?: (event: AgentEvent) => void;
}

/**
 * Sends each line as a turn and prints the transcript on standard output: `[user] <line>`,
 * `[tool:<name>] -> ok` (with the images it returned) or `-> <CODE> <message>`, `[assistant] <text>`,
 * and `[stopped: <reason>]` when a turn ends for another reason than an answer. An aborted turn
 * (Ctrl-C) ends the run; its stop reason is returned.
 */
export async function runLines(agent: Agent, lines: readonly string[], options: RunLinesOptions): Promise<StopReason | undefined> {
  const { signal, progress, onEvent } = options;
  const print = (event: AgentEvent) => {
    progress.onEvent(event);
    printEvent(event);
    onEvent?.(event);
  };
  let last: StopReason | undefined;
  for (const line of lines) {
    if (signal.aborted) return 'aborted';
    console.log(`[user] ${line}`);
    const result = await agent.turn(line, { signal, stream: false, onEvent: print }).finally(progress.stop);
    last = result.stopReason;
    if (last !== 'stop') console.log(`[stopped: ${last}]`);
    if (last === 'aborted') break;
  }
  return last;
}

/** The transcript line of an event, if it has one: a tool's result or the model's answer. */
export function printEvent(event: AgentEvent): void {
  if (event.type === 'tool-result') {
    const { result } = event;
    console.log(`[tool:${event.call.name}] -> ${result.ok ? okWithImages(result.parts) : `${result.error.code} ${oneLine(result.error.message)}`}`);
  } else if (event.type === 'model-call-end' && event.response.text !== '') {
    console.log(`[assistant] ${oneLine(event.response.text)}`);
  }
}

function okWithImages(parts: readonly { readonly type: string }[] | undefined): string {
  const images = parts?.filter((part) => part.type === 'image').length ?? 0;
  return images === 0 ? 'ok' : `ok, ${images} image${images === 1 ? '' : 's'}`;
}
