import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FinishReason, Usage } from '@weir/core';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import type { ScriptedResponse } from './loopback-server.js';

/** One entry of `recorded-streams/manifest.json` in the shared fixtures (see the README there). */
export interface Recording {
  readonly id: string;
  readonly file: string;
  readonly serve: 'vercel-chunks' | 'raw';
  readonly contentType: string;
  readonly status: number;
  readonly provider: string;
  readonly recorded: boolean;
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string };
  readonly note?: string;
}

/**
 * `recorded-streams/` of the shared fixtures beside the clone: other projects' recordings, read where they
 * lie and never copied into the repository. Undefined where it is absent (a clone with no `shared/`
 * beside it), after one line on standard error saying what is skipped.
 */
export const recordingsDir: string | undefined = sharedFixture('recorded-streams', 'llm-openai: the 47 recorded provider streams (test/recorded-streams.test.ts)');

/** The manifest's recordings; none where the folder is absent. */
export const recordings: readonly Recording[] =
  recordingsDir === undefined ? [] : (JSON.parse(readFileSync(join(recordingsDir, 'manifest.json'), 'utf8')) as Recording[]);

/** The recorded body as text (gunzipped when the file is). */
export function recordedBody(recording: Recording): string {
  const bytes = readFileSync(join(recordingsDir!, recording.file));
  return (recording.file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** True when the recording is a Server-Sent Events stream. */
export function isStreamRecording(recording: Recording): boolean {
  return recording.contentType.includes('text/event-stream');
}

/**
 * The SSE lines the server sends for a stream recording: vercel chunks become one `data:` event each
 * plus `[DONE]`; a raw stream is split into its lines as recorded.
 */
export function recordedLines(recording: Recording): string[] {
  const body = recordedBody(recording);
  if (recording.serve === 'vercel-chunks') {
    const events = body.split('\n').filter((line) => line.trim() !== '').flatMap((line) => [`data: ${line}`, '']);
    return [...events, 'data: [DONE]', ''];
  }
  const lines = body.split(/\r?\n/);
  // The body's final line end is written by the server after the last line.
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The recording as the loopback server's answer, served as its project's own test serves it. */
export function recordedResponse(recording: Recording, delivery: Partial<ScriptedResponse> = {}): ScriptedResponse {
  const headers = { 'content-type': recording.contentType, 'x-request-id': 'req_recorded' };
  // Vercel chunks go out as one body too, so that random slices cut across events, not within each.
  const body = recording.serve === 'vercel-chunks' ? `${recordedLines(recording).join('\n')}\n` : recordedBody(recording);
  return { status: recording.status, headers, body, ...delivery };
}

/** What the recording says the answer is, read the way the recording project's own test reads it. */
export type RecordedOutcome =
  | {
      readonly kind: 'answer';
      readonly text: string;
      readonly reasoning: string;
      readonly refusal: string;
      /** `id` is `undefined` when the provider sent none (the client synthesises one). */
      readonly toolCalls: readonly { readonly id: string | undefined; readonly name: string; readonly arguments: string }[];
      readonly finishReason: FinishReason;
      readonly usage: Usage | undefined;
    }
  /** An error: the HTTP status, or the numeric code inside the stream or body. */
  | { readonly kind: 'error'; readonly status: number };

interface WireCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

const FINISH: Readonly<Record<string, FinishReason>> = { stop: 'stop', tool_calls: 'tool_calls', length: 'length', content_filter: 'content_filter' };

/**
 * Derives the expected outcome from the recording's bytes: the text of every `content` (a string, or
 * `text` parts), reasoning from `reasoning_content`, `reasoning`, `reasoning_details` text or Mistral's
 * `thinking` parts, tool calls joined by index, the last finish reason, the last usage (`usage`, or
 * Groq's `x_groq.usage`), and an error for a non-2xx status or an `{ error }` event.
 */
export function recordedOutcome(recording: Recording): RecordedOutcome {
  if (recording.status >= 400) return { kind: 'error', status: recording.status };
  const body = recordedBody(recording);
  const chunks: Record<string, unknown>[] = [];
  if (!isStreamRecording(recording)) {
    chunks.push(JSON.parse(body) as Record<string, unknown>);
  } else {
    for (const event of sseEvents(recording.serve === 'vercel-chunks' ? recordedLines(recording).join('\n') : body)) {
      if (event.data === '[DONE]') break;
      const chunk = JSON.parse(event.data) as Record<string, unknown>;
      if (chunk['error'] != null) return { kind: 'error', status: errorStatus(chunk['error']) };
      chunks.push(chunk);
    }
  }

  let text = '';
  let reasoning = '';
  let refusal = '';
  let wireFinish: string | undefined;
  let usage: Usage | undefined;
  const calls = new Map<number, WireCall>();
  for (const chunk of chunks) {
    const wireUsage = (chunk['usage'] ?? (chunk['x_groq'] as Record<string, unknown> | undefined)?.['usage']) as Record<string, unknown> | undefined;
    if (wireUsage != null && typeof wireUsage['prompt_tokens'] === 'number') usage = usageOf(wireUsage);
    for (const choice of (chunk['choices'] as Record<string, unknown>[] | null) ?? []) {
      if (((choice['index'] as number | undefined) ?? 0) !== 0) continue;
      if (typeof choice['finish_reason'] === 'string') wireFinish = choice['finish_reason'];
      const part = (choice['delta'] ?? choice['message'] ?? {}) as Record<string, unknown>;
      const content = part['content'];
      if (typeof content === 'string') text += content;
      else if (Array.isArray(content)) {
        for (const item of content as Record<string, unknown>[]) {
          if (item['type'] === 'text') text += item['text'] as string;
          if (item['type'] === 'thinking') reasoning += (item['thinking'] as { text: string }[]).map((piece) => piece.text).join('');
        }
      }
      const details = ((part['reasoning_details'] as Record<string, unknown>[] | undefined) ?? []).filter((detail) => detail['type'] === 'reasoning.text').map((detail) => detail['text'] as string);
      reasoning += (part['reasoning_content'] as string | null | undefined) ?? (part['reasoning'] as string | null | undefined) ?? details.join('');
      refusal += (part['refusal'] as string | null | undefined) ?? '';
      ((part['tool_calls'] as Record<string, unknown>[] | null | undefined) ?? []).forEach((call, position) => {
        const index = choice['message'] !== undefined ? position : (call['index'] as number);
        const fn = call['function'] as Record<string, unknown>;
        const slot = calls.get(index) ?? { id: undefined, name: '', arguments: '' };
        if (typeof call['id'] === 'string' && call['id'] !== '' && slot.id === undefined) slot.id = call['id'];
        if (typeof fn['name'] === 'string' && slot.name === '') slot.name = fn['name'];
        const args = fn['arguments'];
        slot.arguments += typeof args === 'string' ? args : args == null ? '' : JSON.stringify(args);
        calls.set(index, slot);
      });
    }
  }
  const toolCalls = [...calls.values()];
  let finishReason = wireFinish === undefined ? 'stop' : FINISH[wireFinish]!;
  if (finishReason === 'stop' && toolCalls.length > 0) finishReason = 'tool_calls';
  const runnable = finishReason === 'stop' || finishReason === 'tool_calls';
  return { kind: 'answer', text, reasoning, refusal, toolCalls: runnable ? toolCalls : [], finishReason, usage };
}

function usageOf(wire: Record<string, unknown>): Usage {
  const cached = (wire['prompt_tokens_details'] as Record<string, unknown> | null | undefined)?.['cached_tokens'] ?? wire['prompt_cache_hit_tokens'];
  return {
    inputTokens: wire['prompt_tokens'] as number,
    outputTokens: wire['completion_tokens'] as number,
    ...(typeof cached === 'number' && { cachedInputTokens: cached }),
  };
}

function errorStatus(error: unknown): number {
  const record = error as Record<string, unknown>;
  for (const value of [record['status_code'], record['code']]) if (typeof value === 'number') return value;
  return 500;
}

/** The events of an SSE text, with their `data` lines joined. */
function sseEvents(text: string): { event: string | undefined; data: string }[] {
  const events: { event: string | undefined; data: string }[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/);
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''));
    if (data.length === 0) continue;
    events.push({ event: lines.find((line) => line.startsWith('event:'))?.slice(6).trim(), data: data.join('\n').trim() });
  }
  return events;
}
