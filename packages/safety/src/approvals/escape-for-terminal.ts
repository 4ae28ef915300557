// Characters a terminal does not show as themselves: controls (C0, DEL, C1, so ESC and its
// sequences), format characters (bidi embeddings, overrides and isolates U+202A-U+202E and
// U+2066-U+2069, marks, zero-width characters, soft hyphen, BOM, tag characters), line and paragraph
// separators, lone surrogates, spaces other than U+0020, and the fillers that render as nothing.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115F\u1160\u3164\uFFA0\u2800]|(?! )\p{Zs}/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Makes text safe to print in a terminal and honest to read: every character that would be
 * invisible, move the cursor, reorder what follows (`invoice\u202Etxt.exe` shows as
 * `invoice\u202Etxt.exe`) or start an escape sequence is replaced by its `\uXXXX` (or `\u{XXXXX}`)
 * escape; `\n`, `\r` and `\t` by those. Everything else, backslashes included, is left as it is:
 * show values as JSON (which already doubles backslashes) when an escape must not be confused with
 * text. Never throws.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(HIDDEN, (char) => NAMED[char] ?? codePointEscape(char));
}

function codePointEscape(char: string): string {
  const code = char.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}
