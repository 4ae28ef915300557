import { describeImage, formatBytes, imageBytes, type ContentPart } from './content-part.js';
import { snapshotBytes } from '../pipeline/snapshot-value.js';

/** Default cap on the content a model sees from one tool call, in UTF-16 code units. */
export const DEFAULT_MAX_CONTENT_CHARS = 100_000;

/**
 * The default projection of a tool's value into model-visible text: a string stays as it is,
 * anything else becomes pretty JSON. Never throws: cycles, BigInt, undefined, functions, symbols,
 * errors, Maps, Sets and binary buffers all get a readable stand-in.
 */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(no output)';
  try {
    return JSON.stringify(value, jsonReplacer(), 2) ?? String(value);
  } catch (error) {
    // A getter that throws or a pathological structure: say so instead of failing the call.
    return `[unrenderable value: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

/**
 * Caps `content` at `maxChars`, cutting on a code point boundary and saying how much was left out,
 * so the model knows the text is incomplete.
 */
export function capContent(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const note = (omitted: number) => `\n[... truncated: ${omitted} more characters not shown]`;
  // The note counts against the cap: the whole content stays within maxChars.
  // (Below about 50 characters there is no room for it, and the note goes over the cap instead.)
  const room = maxChars - note(content.length).length;
  let end = room > 0 ? room : maxChars;
  const code = content.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${content.slice(0, end)}${note(content.length - end)}`;
}

/** Default cap on one image's bytes (decoded) in a result: 5 MB, what the strictest providers take. */
export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Caps parts as `capContent` caps a string: text parts together hold at most `maxChars` characters
 * (the part that crosses the line is cut on a code point boundary with the same note; later text
 * parts are left out); an image over `maxImageBytes` is never cut, it is replaced by a text note.
 * Images and resources within their caps stay as they are. Returns `parts` itself when nothing was cut.
 */
export function capParts(parts: readonly ContentPart[], maxChars: number, maxImageBytes: number): readonly ContentPart[] {
  let budget = maxChars;
  let changed = false;
  const capped: ContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (budget <= 0) {
        changed = true;
        continue;
      }
      if (part.text.length > budget) {
        capped.push(Object.freeze({ type: 'text', text: capContent(part.text, budget) }));
        budget = 0;
        changed = true;
        continue;
      }
      budget -= part.text.length;
    } else if (part.type === 'image' && imageBytes(part) > maxImageBytes) {
      capped.push(Object.freeze({ type: 'text', text: `[image: ${describeImage(part)}, not shown: over the ${formatBytes(maxImageBytes)} image limit]` }));
      changed = true;
      continue;
    }
    capped.push(part);
  }
  return changed ? Object.freeze(capped) : parts;
}

function jsonReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  // The objects on the path from the root to the value being replaced: holders of what comes next.
  // An original value already on the path is a cycle; one seen elsewhere is merely shared.
  const holders: object[] = [];
  const originals: object[] = [];
  return function replace(this: unknown, key: string, value: unknown): unknown {
    // JSON.stringify applies toJSON before the replacer; look at the original for buffers.
    const held = typeof this === 'object' && this !== null ? (this as Record<string, unknown>)[key] : value;
    const original = snapshotBytes(held) ?? held;
    if (original instanceof ArrayBuffer) return `[ArrayBuffer ${original.byteLength} bytes]`;
    if (ArrayBuffer.isView(original)) return `[${original.constructor.name} ${original.byteLength} bytes]`;
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
    if (typeof value === 'symbol') return value.toString();
    if (typeof value !== 'object' || value === null) return value;

    while (holders.length > 0 && holders[holders.length - 1] !== this) {
      holders.pop();
      originals.pop();
    }
    if (originals.includes(value)) return '[Circular]';

    let replacement: object = value;
    if (value instanceof Error) replacement = { name: value.name, message: value.message };
    else if (value instanceof Map) replacement = Object.fromEntries(value);
    else if (value instanceof Set) replacement = [...value];
    else if (value instanceof ArrayBuffer) return `[ArrayBuffer ${value.byteLength} bytes]`;
    holders.push(replacement);
    originals.push(value);
    return replacement;
  };
}
