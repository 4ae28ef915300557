const encoder = new TextEncoder();
// fatal: a torn multi-byte character is a parse failure, not a silent U+FFFD.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/**
 * One record as one line: `JSON.stringify(record) + "\n"`, UTF-8. JSON escapes every control
 * character, so the only `\n` is the terminator. U+2028 and U+2029 are valid raw in JSON but some
 * line splitters break on them, so they are written escaped (they can only occur inside strings).
 * Throws `TypeError` on a value JSON cannot hold (a cycle, a BigInt).
 */
export function encodeRecord(record: unknown): Uint8Array {
  const json = JSON.stringify(record).replace(LINE_SEPARATORS, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return encoder.encode(`${json}\n`);
}

/** Parses one line without its `\n`. Never throws: a bad line is `{ ok: false, reason }`. */
export function decodeLine(bytes: Uint8Array): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, reason: 'invalid UTF-8' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: bytes.includes(0) ? 'NUL bytes in the line' : 'not valid JSON' };
  }
}
