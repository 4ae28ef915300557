import { HarnessError } from '../harness-error.js';
import { newCallKey } from '../pipeline/call-key.js';
import type { LanguageModel, ModelToolCall } from './model.js';

/**
 * Makes a model's tool calls safe to record and run, before they join the history:
 * - each must be an object with a string `name` and arguments given as a string or an object (or
 *   left out); anything else is `INVALID_MODEL_RESPONSE`, thrown before the answer joins the
 *   history, so the history stays answerable;
 * - ids are unique across the agent's history by construction: an empty id, or one the history
 *   already holds (some providers send duplicate or empty ids, and reuse them across turns), gets
 *   a deterministic new one (`<id>_2`, `<id>_3`, ..., or `call_<step>_<n>` for an empty one), the
 *   same in the history and in what the model is sent next;
 * - each gets a `key`, the harness's own UUIDv7 for that execution (recorded with the message, so a
 *   resumed call keeps it).
 *
 * Returns the same array when nothing had to change but the keys.
 */
export function normalizeToolCalls(model: LanguageModel, calls: readonly ModelToolCall[], usedIds: Set<string>, step: number): readonly ModelToolCall[] {
  const normalized: ModelToolCall[] = new Array(calls.length);
  for (let index = 0; index < calls.length; index += 1) {
    const call = calls[index] as Partial<Record<keyof ModelToolCall, unknown>> | null | undefined;
    const problem = problemOf(call);
    if (problem !== undefined) throw new HarnessError('INVALID_MODEL_RESPONSE', `Model ${model.id} sent a malformed tool call at position ${index + 1}: ${problem}.`);
    const wanted = typeof call!.id === 'string' ? call!.id : '';
    const id = uniqueId(wanted, usedIds, step, index);
    usedIds.add(id);
    const key = typeof call!.key === 'string' && call!.key !== '' ? call!.key : newCallKey();
    const args = (call!.arguments ?? '') as ModelToolCall['arguments'];
    const providerData = call!.providerData as ModelToolCall['providerData'];
    // A call's provider data (Gemini's thought signature) goes back with it.
    normalized[index] = Object.freeze(providerData === undefined ? { id, name: call!.name as string, arguments: args, key } : { id, name: call!.name as string, arguments: args, key, providerData });
  }
  return Object.freeze(normalized);
}

function problemOf(call: Partial<Record<keyof ModelToolCall, unknown>> | null | undefined): string | undefined {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return `expected an object, got ${call === null ? 'null' : Array.isArray(call) ? 'an array' : typeof call}`;
  if (typeof call.name !== 'string' || call.name === '') return 'it has no tool name';
  if (call.id !== undefined && typeof call.id !== 'string') return `its id is ${typeof call.id}, not a string`;
  const args = call.arguments;
  if (args !== undefined && typeof args !== 'string' && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    return `its arguments are ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}, not a JSON string or an object`;
  }
  return undefined;
}

function uniqueId(wanted: string, used: ReadonlySet<string>, step: number, index: number): string {
  const base = wanted.trim() === '' ? `call_${step}_${index + 1}` : wanted;
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}_${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
