import type { ModelStreamEvent, ModelToolCall } from '@weir/core';
import { OpenAIError } from './openai-error.js';
import { synthesizeCallId } from './synthesize-call-id.js';
import { isRecord } from './is-record.js';

type ToolCallDeltaEvent = Extract<ModelStreamEvent, { type: 'tool-call-delta' }>;

/** Where synthesised ids come from: the answer's turn number and the ids already in use. */
export interface CallIdContext {
  readonly turn: number;
  readonly taken: ReadonlySet<string>;
}

interface Slot {
  readonly position: number;
  id: string;
  name: string;
  readonly fragments: string[];
  /** Set when the arguments arrived as an object: its canonical JSON text, final. */
  objectArguments: string | undefined;
}

/**
 * Assembles streamed `tool_calls` deltas into whole calls, by index, holding against what real
 * servers send: a missing index (older Ollama) opens a new slot for each new id, or for each name
 * when there is no id; an index reused with a new non-empty id opens a new slot; `id: ""` counts as
 * missing and `name: ""` never overwrites; `arguments` may be an object, accepted only as the whole
 * of a call's arguments. Arguments are never parsed here: the raw text is returned once the turn is
 * over, and parsed once, by whoever runs the call.
 */
export class ToolCallAssembler {
  readonly #slots: Slot[] = [];
  readonly #byIndex = new Map<number, Slot>();

  /** Calls seen so far. */
  get size(): number {
    return this.#slots.length;
  }

  /**
   * True when every call so far has a name and arguments that are a whole JSON object (or none):
   * what a stream that ends in `[DONE]` without a finish reason must show to count as finished.
   * This only looks; the arguments are still returned as the raw text. Never throws.
   */
  get whole(): boolean {
    return this.#slots.every((slot) => slot.name !== '' && (slot.objectArguments !== undefined || isJsonObjectText(slot.fragments.join(''))));
  }

  /**
   * Takes one wire delta; returns the event to pass on, or `undefined` when it carried nothing.
   * Throws `OpenAIError('INVALID_RESPONSE')` on a protocol violation (text fragments mixed with
   * object arguments): failing closed is better than running a call with spliced arguments.
   */
  accept(delta: unknown): ToolCallDeltaEvent | undefined {
    if (!isRecord(delta)) return undefined;
    const fn = isRecord(delta['function']) ? delta['function'] : {};
    const id = nonEmpty(delta['id']);
    const name = nonEmpty(fn['name']);
    const args = fn['arguments'];
    // A delta with nothing in it (`{ index: 0, type: 'function' }`) must not open a call of its own.
    if (id === undefined && name === undefined && (args === undefined || args === null || args === '')) return undefined;
    const slot = this.#slotFor(delta['index'], id, name);

    let newId: string | undefined;
    if (id !== undefined && slot.id === '') slot.id = newId = id;
    let newName: string | undefined;
    if (name !== undefined && slot.name === '') slot.name = newName = name;
    const argumentsDelta = this.#acceptArguments(slot, args);

    if (newId === undefined && newName === undefined && argumentsDelta === '') return undefined;
    return {
      type: 'tool-call-delta',
      index: slot.position,
      ...(newId !== undefined && { id: newId }),
      ...(newName !== undefined && { name: newName }),
      argumentsDelta,
    };
  }

  /** The whole calls, in order, ids synthesised where the provider sent none. Never throws. */
  finish(ids: CallIdContext): ModelToolCall[] {
    const taken = new Set(ids.taken);
    for (const slot of this.#slots) if (slot.id !== '') taken.add(slot.id);
    return this.#slots.map((slot) => {
      let id = slot.id;
      if (id === '') {
        id = synthesizeCallId(ids.turn, slot.position, taken);
        taken.add(id);
      }
      return { id, name: slot.name, arguments: slot.objectArguments ?? slot.fragments.join('') };
    });
  }

  #slotFor(index: unknown, id: string | undefined, name: string | undefined): Slot {
    const last = this.#slots.at(-1);
    if (typeof index !== 'number' || !Number.isInteger(index)) {
      // No index: never default to 0, which would splice separate calls into one.
      if (last === undefined) return this.#open(undefined);
      if (id !== undefined) return last.id === id ? last : this.#open(undefined);
      if (name !== undefined) return last.name === '' ? last : this.#open(undefined);
      return last;
    }
    const current = this.#byIndex.get(index);
    if (current === undefined) return this.#open(index);
    // The same index with a different id is a new call (servers that number each call 0).
    if (id !== undefined && current.id !== '' && current.id !== id) return this.#open(index);
    return current;
  }

  #open(index: number | undefined): Slot {
    const slot: Slot = { position: this.#slots.length, id: '', name: '', fragments: [], objectArguments: undefined };
    this.#slots.push(slot);
    if (index !== undefined) this.#byIndex.set(index, slot);
    return slot;
  }

  #acceptArguments(slot: Slot, value: unknown): string {
    if (value === undefined || value === null || value === '') return '';
    if (typeof value === 'string') {
      if (slot.objectArguments !== undefined) throw protocolError(slot, 'a text fragment after object arguments');
      slot.fragments.push(value);
      return value;
    }
    if (isRecord(value)) {
      const text = JSON.stringify(value);
      if (slot.objectArguments !== undefined) {
        // A server repeating the same object is harmless; a different one is ambiguous.
        if (slot.objectArguments === text) return '';
        throw protocolError(slot, 'a second, different arguments object');
      }
      if (slot.fragments.length > 0) throw protocolError(slot, 'object arguments after text fragments');
      slot.objectArguments = text;
      return text;
    }
    throw protocolError(slot, `arguments of type ${Array.isArray(value) ? 'array' : typeof value}`);
  }
}

function protocolError(slot: Slot, what: string): OpenAIError {
  const call = slot.name === '' ? `tool call #${slot.position}` : `tool call #${slot.position} (${slot.name})`;
  return new OpenAIError('INVALID_RESPONSE', `The stream sent ${what} for ${call}; refusing to guess the arguments, so no call from this answer runs.`);
}

function isJsonObjectText(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
