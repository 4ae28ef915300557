/**
 * The matching behind edit_file, on text only (no file system): find `oldString` in a file's
 * text, exactly first (line endings normalised), then, only when that finds nothing, with
 * tolerances a model needs (trailing whitespace, indentation, curly quotes and dashes), each one
 * accepted only when it finds exactly one place. After such a match `new_string` is written in the
 * file's style (its indentation, its quotes: indent-style.ts, quote-style.ts). The result is the new
 * text in the file's own line endings, or why nothing matched, with the closest lines.
 */
import { detectIndentStyle, leadingWhitespace, reindentToFile } from './indent-style.js';
import { QuoteStyle } from './quote-style.js';

/** How a match was found. */
export type MatchKind = 'exact' | 'trailing-whitespace' | 'indentation' | 'quotes-and-dashes';

/** What `editText` was asked. */
export interface EditRequest {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/** A successful edit. */
export interface EditedText {
  readonly ok: true;
  /** The new text, in the file's line endings (edited lines take the file's dominant ending). */
  readonly text: string;
  readonly replacements: number;
  readonly kind: MatchKind;
  /** 1-based lines of the new text (LF-normalised numbering) that the first replacement covers. */
  readonly firstLine: number;
  readonly lastLine: number;
  /** After a tolerant match: how new_string was written (in the file's style, or as given and why). */
  readonly style?: string;
}

/** Why nothing was changed. */
export interface EditRefused {
  readonly ok: false;
  readonly code: 'NO_MATCH' | 'AMBIGUOUS_MATCH';
  /** What the model reads after "old_string ...": which tolerance, how many places, the closest lines. */
  readonly detail: string;
}

interface Region {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
  readonly style?: string;
}

const QUOTES_AND_DASHES: Readonly<Record<string, string>> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u00a0': ' ',
};
const PUNCTUATION = /[\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033\u2010-\u2015\u2212\u00a0]/g;
const SHOWN_CONTEXT_LINES = 12;

/** Curly quotes, dashes and no-break spaces as their ASCII look-alikes; one character for one, so offsets stay. */
export function plainPunctuation(text: string): string {
  return text.replace(PUNCTUATION, (character) => QUOTES_AND_DASHES[character] ?? character);
}

/**
 * Applies an edit to `fileText` (without a byte-order mark; any line endings). `eol` is the file's
 * dominant line ending, given to the new lines. Never throws.
 */
export function editText(fileText: string, request: EditRequest, eol: '\n' | '\r\n'): EditedText | EditRefused {
  const view = normalisedView(fileText);
  const oldString = stripBom(request.oldString).replace(/\r\n/g, '\n');
  const newString = stripBom(request.newString).replace(/\r\n/g, '\n');
  const text = view.text;

  const exact = occurrences(text, oldString);
  if (exact.length > 1 && !request.replaceAll) {
    return { ok: false, code: 'AMBIGUOUS_MATCH', detail: `occurs ${exact.length} times (at lines ${exact.slice(0, 10).map((at) => lineOf(text, at)).join(', ')}${exact.length > 10 ? ', ...' : ''}). Add surrounding lines to make it unique, or set replace_all to replace every occurrence.` };
  }
  if (exact.length > 0) {
    return apply(view, exact.map((start) => ({ start, end: start + oldString.length, replacement: newString })), 'exact', eol);
  }

  const lines = splitLines(text);
  const oldLines = oldString.split('\n');
  const endsWithNewline = oldLines.length > 1 && oldLines[oldLines.length - 1] === '';
  if (endsWithNewline) oldLines.pop();

  const tolerances: { kind: MatchKind; key: (line: string) => string; reindent: boolean }[] = [
    { kind: 'trailing-whitespace', key: (line) => line.trimEnd(), reindent: false },
    { kind: 'indentation', key: (line) => line.trim(), reindent: true },
  ];
  for (const tolerance of tolerances) {
    const found = lineWindows(lines, oldLines, tolerance.key);
    if (found.length > 1) return ambiguousTolerance(tolerance.kind, found.map((index) => index + 1));
    if (found.length === 1) {
      return apply(view, [lineRegion(lines, found[0]!, oldLines, newString, endsWithNewline, tolerance.reindent, text)], tolerance.kind, eol);
    }
  }

  // Curly quotes and dashes: first as characters (the string may start or end inside a line), then by lines.
  const plainText = plainPunctuation(text);
  const plainOld = plainPunctuation(oldString);
  const byCharacter = occurrences(plainText, plainOld);
  if (byCharacter.length > 1) return ambiguousTolerance('quotes-and-dashes', byCharacter.map((at) => lineOf(text, at)));
  if (byCharacter.length === 1) {
    const start = byCharacter[0]!;
    const quotes = new QuoteStyle();
    quotes.learn(text.slice(start, start + oldString.length), oldString);
    return apply(view, [{ start, end: start + oldString.length, ...inFileQuotes(newString, quotes) }], 'quotes-and-dashes', eol);
  }
  const byLine = lineWindows(lines, oldLines, (line) => plainPunctuation(line).trim());
  if (byLine.length > 1) return ambiguousTolerance('quotes-and-dashes', byLine.map((index) => index + 1));
  if (byLine.length === 1) {
    const quotes = new QuoteStyle();
    oldLines.forEach((line, offset) => quotes.learn(lines[byLine[0]! + offset]!.text.trim(), line.trim()));
    const quoted = inFileQuotes(newString, quotes);
    const region = lineRegion(lines, byLine[0]!, oldLines, quoted.replacement, endsWithNewline, true, text);
    const style = [quoted.style, region.style].filter((note) => note !== undefined).join('; ');
    return apply(view, [{ ...region, ...(style !== '' && { style }) }], 'quotes-and-dashes', eol);
  }

  return { ok: false, code: 'NO_MATCH', detail: closestLines(lines, oldLines) };
}

/** How a tolerance is named in messages. */
export function describeMatch(kind: MatchKind): string | undefined {
  switch (kind) {
    case 'exact':
      return undefined;
    case 'trailing-whitespace':
      return 'matched ignoring trailing whitespace';
    case 'indentation':
      return 'matched ignoring indentation';
    case 'quotes-and-dashes':
      return 'matched treating curly quotes, dashes and no-break spaces as their plain forms';
  }
}

/** Lines `from` to `to` (1-based, inclusive) of `text`, numbered like `cat -n`. */
export function numberedLines(text: string, from: number, to: number, maxLineChars = 500): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  for (let number = Math.max(1, from); number <= Math.min(to, lines.length); number += 1) {
    const line = lines[number - 1]!;
    out.push(`${String(number).padStart(6)}\t${line.length > maxLineChars ? `${line.slice(0, maxLineChars)} [...]` : line}`);
  }
  return out.join('\n');
}

interface NormalisedView {
  /** The text with every CRLF as LF. */
  readonly text: string;
  /** Sorted offsets in `text` of each LF that was a CRLF in the file. */
  readonly crlf: readonly number[];
  readonly raw: string;
}

function normalisedView(raw: string): NormalisedView {
  const crlf: number[] = [];
  if (!raw.includes('\r\n')) return { text: raw, crlf, raw };
  let removed = 0;
  for (let index = raw.indexOf('\r\n'); index !== -1; index = raw.indexOf('\r\n', index + 2)) {
    crlf.push(index + 1 - (removed += 1));
  }
  return { text: raw.replace(/\r\n/g, '\n'), crlf, raw };
}

// Offset in the raw text of offset `index` of the normalised text: one more per CRLF before it.
function rawIndex(view: NormalisedView, index: number): number {
  let low = 0;
  let high = view.crlf.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (view.crlf[middle]! < index) low = middle + 1;
    else high = middle;
  }
  return index + low;
}

function apply(view: NormalisedView, regions: readonly Region[], kind: MatchKind, eol: '\n' | '\r\n'): EditedText {
  const parts: string[] = [];
  let cursor = 0;
  for (const region of regions) {
    const start = rawIndex(view, region.start);
    const end = rawIndex(view, region.end);
    parts.push(view.raw.slice(cursor, start), eol === '\n' ? region.replacement : region.replacement.replace(/\n/g, '\r\n'));
    cursor = end;
  }
  parts.push(view.raw.slice(cursor));
  const first = regions[0]!;
  const firstLine = lineOf(view.text, first.start);
  const lastLine = firstLine + countNewlines(first.replacement);
  return { ok: true, text: parts.join(''), replacements: regions.length, kind, firstLine, lastLine, ...(first.style !== undefined && { style: first.style }) };
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) found.push(index);
  return found;
}

interface Line {
  readonly text: string;
  readonly start: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    lines.push({ text: text.slice(start, end === -1 ? text.length : end), start });
    if (end === -1) return lines;
    start = end + 1;
  }
}

// Indexes of the lines where `oldLines` start when both are compared through `key`.
function lineWindows(lines: readonly Line[], oldLines: readonly string[], key: (line: string) => string): number[] {
  const wanted = oldLines.map(key);
  if (wanted.every((line) => line === '')) return [];
  const keys = lines.map((line) => key(line.text));
  const found: number[] = [];
  for (let index = 0; index + wanted.length <= keys.length; index += 1) {
    let all = true;
    for (let offset = 0; offset < wanted.length && all; offset += 1) all = keys[index + offset] === wanted[offset];
    if (all) found.push(index);
  }
  return found;
}

function lineRegion(lines: readonly Line[], index: number, oldLines: readonly string[], newString: string, endsWithNewline: boolean, reindent: boolean, text: string): Region {
  const last = lines[index + oldLines.length - 1]!;
  let end = last.start + last.text.length;
  if (endsWithNewline && end < text.length) end += 1;
  const start = lines[index]!.start;
  if (!reindent) return { start, end, replacement: newString };
  return { start, end, ...inFileIndentation(newString, oldLines, lines.slice(index, index + oldLines.length).map((line) => line.text), lines) };
}

// new_string in the file's indentation style; where that cannot be told, only old_string's
// indentation of the first line is swapped for the file's, the rest left as the model wrote it.
function inFileIndentation(newString: string, oldLines: readonly string[], fileLines: readonly string[], lines: readonly Line[]): { replacement: string; style?: string } {
  // old_string indented as the file is (a match that needed another tolerance): new_string is too.
  if (oldLines.every((line, at) => line.trim() === '' || leadingWhitespace(line) === leadingWhitespace(fileLines[at]!))) return { replacement: newString };
  const fileStyle = detectIndentStyle(lines.map((line) => line.text));
  const restyled = reindentToFile(newString, oldLines, fileLines, fileStyle);
  if (restyled !== undefined) {
    if (restyled === newString) return { replacement: newString };
    const named = fileStyle!.kind === 'tab' ? 'tabs' : `${fileStyle!.size} spaces`;
    return { replacement: restyled, style: `new_string was re-indented to the file's ${named}` };
  }
  const at = oldLines.findIndex((line) => line.trim() !== '');
  if (at === -1) return { replacement: newString };
  const oldIndent = leadingWhitespace(oldLines[at]!);
  const fileIndent = leadingWhitespace(fileLines[at]!);
  const replacement =
    oldIndent === fileIndent
      ? newString
      : newString
          .split('\n')
          .map((line) => (line.trim() === '' ? line : line.startsWith(oldIndent) ? fileIndent + line.slice(oldIndent.length) : line))
          .join('\n');
  return { replacement, style: "the file's indentation style could not be told, so new_string keeps its own indentation relative to its first line" };
}

// new_string's quotes as the matched text wrote them, when the match needed that tolerance.
function inFileQuotes(newString: string, quotes: QuoteStyle): { replacement: string; style?: string } {
  const replacement = quotes.apply(newString);
  return replacement === newString ? { replacement } : { replacement, style: "new_string's quotes were written as the file writes them" };
}

function ambiguousTolerance(kind: MatchKind, lineNumbers: readonly number[]): EditRefused {
  return {
    ok: false,
    code: 'AMBIGUOUS_MATCH',
    detail: `does not occur exactly, and ${describeMatch(kind)!} it occurs ${lineNumbers.length} times (at lines ${lineNumbers.slice(0, 10).join(', ')}). Copy the text exactly from read_file, with more surrounding lines.`,
  };
}

// The lines of the file most like old_string, numbered, and where the best candidate first differs.
function closestLines(lines: readonly Line[], oldLines: readonly string[]): string {
  const probe = oldLines.slice(0, 50).map((line) => plainPunctuation(line).trim());
  const fileKeys = lines.map((line) => plainPunctuation(line.text).trim());
  let best = -1;
  let bestScore = 0;
  for (let index = 0; index < fileKeys.length; index += 1) {
    let score = 0;
    for (let offset = 0; offset < probe.length && index + offset < fileKeys.length; offset += 1) {
      if (probe[offset] !== '' && fileKeys[index + offset] === probe[offset]) score += 1000;
    }
    if (score === 0) score = commonPrefix(fileKeys[index]!, probe[0] ?? '');
    if (score > bestScore) {
      bestScore = score;
      best = index;
    }
  }
  if (best === -1 || bestScore < 4) return 'does not occur, and no line of the file is close to its first line. Read the file (or search_files) and copy the text exactly, without the line numbers read_file adds.';
  const text = lines.map((line) => line.text).join('\n');
  const from = Math.max(1, best + 1 - 2);
  const to = Math.min(lines.length, best + 1 + Math.min(oldLines.length, SHOWN_CONTEXT_LINES) + 1);
  let difference = '';
  for (let offset = 0; offset < oldLines.length && best + offset < lines.length; offset += 1) {
    const fileLine = lines[best + offset]!.text;
    const oldLine = oldLines[offset]!;
    if (fileLine === oldLine) continue;
    const column = commonPrefix(fileLine, oldLine) + 1;
    difference = ` Line ${best + offset + 1} of the file differs from line ${offset + 1} of old_string at column ${column}: the file has ${JSON.stringify(excerpt(fileLine, column))}, old_string has ${JSON.stringify(excerpt(oldLine, column))}.`;
    break;
  }
  return `does not occur. The closest lines of the file:\n${numberedLines(text, from, to)}\n${difference.trim()} Copy the text exactly, without the line numbers read_file adds.`;
}

function excerpt(line: string, column: number): string {
  const start = Math.max(0, column - 1 - 20);
  return `${start > 0 ? '...' : ''}${line.slice(start, column - 1 + 30)}${line.length > column - 1 + 30 ? '...' : ''}`;
}

function commonPrefix(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  return index;
}

function lineOf(text: string, offset: number): number {
  return countNewlines(text.slice(0, offset)) + 1;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

function stripBom(text: string): string {
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}
