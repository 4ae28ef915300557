import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import type { ScriptedResponse } from './loopback-server.js';

// The native providers' recordings in the shared fixtures folder recorded-streams/<provider>/ (read at test
// time, never copied into the repository): their manifest, and each body served the way the folder's
// README says the real service sends it.

/** A tool call as a manifest states it. */
export interface ExpectedCall {
  readonly id: string | null;
  readonly name: string;
  readonly arguments: unknown;
}

/** What a recording contains, in the provider's own words (see the manifest's `conventions`). */
export interface Expectation {
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: readonly ExpectedCall[];
  readonly finishReason: string | null;
  readonly incompleteReason?: string;
  readonly usage: Readonly<Record<string, number>> | null;
  readonly reasoningSignatures?: readonly string[];
  readonly encryptedReasoningItems?: number;
  readonly reasoningItems?: number;
  readonly errorType?: string | null;
  readonly errorCode?: string | null;
  readonly errorMessage?: string;
  readonly blockReason?: string;
  readonly safetyBlockedCategories?: readonly string[];
  readonly finishMessage?: string;
}

export interface SharedRecording {
  readonly id: string;
  readonly source: string;
  readonly kind: 'stream' | 'json' | 'error';
  readonly transport: 'stream' | 'json';
  readonly status: number | null;
  readonly contentType: string | null;
  readonly file: string;
  readonly wire: 'sse' | 'vercel-chunks' | 'json' | 'json-array';
  readonly expect: Expectation;
  readonly tags?: readonly string[];
  readonly extra?: { readonly steps?: readonly { readonly lines: readonly [number, number]; readonly expect: Expectation }[] };
}

/** One body to serve and what it must give: a whole recording, or one response of a file that holds several. */
export interface ReplayCase {
  readonly name: string;
  readonly recording: SharedRecording;
  readonly body: string;
  readonly expect: Expectation;
}

/** The providers of recorded-streams/ (Anthropic's are replayed by @weir/llm-anthropic's tests). */
export type RecordedProvider = 'anthropic' | 'openai-responses' | 'gemini';

/** The folder of `provider`'s recordings, or undefined (said once) when the shared fixtures are absent. */
export function recordingsFolder(provider: RecordedProvider): string | undefined {
  return sharedFixture(`recorded-streams/${provider}`, `the ${provider} recordings`);
}

/** The manifest's entries. */
export function loadRecordings(folder: string): SharedRecording[] {
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { fixtures: SharedRecording[] };
  return manifest.fixtures;
}

/**
 * The cases to replay: one per recording, or one per response of a file that holds several (vercel's
 * multi-step `.chunks.txt`, split at the manifest's line ranges).
 */
export function replayCases(folder: string, recordings: readonly SharedRecording[]): ReplayCase[] {
  return recordings.flatMap((recording): ReplayCase[] => {
    const body = readFileSync(join(folder, '..', recording.file), 'utf8');
    const steps = recording.extra?.steps;
    if (steps === undefined) return [{ name: recording.id, recording, body, expect: recording.expect }];
    const lines = body.split('\n');
    return steps.map((step, index) => ({
      name: `${recording.id} (response ${index + 1} of ${steps.length})`,
      recording,
      body: `${lines.slice(step.lines[0] - 1, step.lines[1]).join('\n')}\n`,
      expect: step.expect,
    }));
  });
}

/**
 * The HTTP status to serve: the recorded one, or for vercel files (which carry none) the one the
 * README gives for the error they hold; 200 otherwise.
 */
export function statusOf(recording: SharedRecording): number {
  if (recording.status !== null) return recording.status;
  if (recording.kind !== 'error' || recording.transport === 'stream') return 200;
  const type = recording.expect.errorType ?? '';
  if (type === 'insufficient_quota') return 429;
  if (type === 'NOT_FOUND') return 404;
  return 400;
}

/**
 * The case as the loopback server's answer, served as the README says: SSE bytes as recorded, vercel
 * chunks re-framed (`event: <type>` for the Responses API, CRLF `data:` events for Gemini), JSON and
 * JSON arrays as `application/json`.
 */
export function servedResponse(replay: ReplayCase, provider: RecordedProvider, delivery: Partial<ScriptedResponse> = {}): ScriptedResponse {
  const { recording } = replay;
  let body = replay.body;
  let contentType = recording.contentType ?? 'application/json';
  if (recording.wire === 'vercel-chunks') {
    const events = body.split('\n').filter((line) => line.trim() !== '');
    body = provider === 'gemini'
      ? events.map((line) => `data: ${line}\r\n\r\n`).join('')
      : events.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join('');
    contentType = 'text/event-stream';
  } else if (recording.wire === 'sse') {
    contentType = recording.contentType ?? 'text/event-stream';
  } else {
    contentType = recording.contentType ?? 'application/json';
  }
  return { status: statusOf(recording), headers: { 'content-type': contentType, 'x-request-id': 'req_recorded' }, body, ...delivery };
}

/** Random slices of 1-7 bytes for small bodies; bigger ones in about 60 slices, so each case stays fast and cuts still land anywhere. */
export function slicesFor(replay: ReplayCase, seed: number): ScriptedResponse['slices'] {
  return { seed, min: 1, max: Math.max(7, Math.ceil(Buffer.byteLength(replay.body) / 30)) };
}

/** Parsed arguments as a manifest states them: an empty string is `{}`. */
export function parsedArguments(args: string | Readonly<Record<string, unknown>>): unknown {
  if (typeof args !== 'string') return args;
  return args.trim() === '' ? {} : JSON.parse(args);
}
