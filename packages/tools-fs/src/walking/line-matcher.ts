import * as vm from 'node:vm';
import { FsError, refusal, type FsRefusal } from '../fs-error.js';
import { requiredLiteral } from './required-literal.js';

/** One matching line. */
export interface LineMatch {
  /** 1-based line number. */
  readonly line: number;
  /** The line, without its line ending, cut at `maxLineChars`. */
  readonly text: string;
  /** Multi-line patterns: the last line the match covers, when after `line`. */
  readonly endLine?: number;
}

/** How a pattern is read. */
export interface PatternOptions {
  readonly ignoreCase: boolean;
  /** The pattern is a literal string, not a regular expression. */
  readonly fixed?: boolean;
  /** Matches may span lines (`.` still stops at a line end unless the pattern says `[^]` or `[\s\S]`). */
  readonly multiline?: boolean;
}

/** Caps and budget of one `LineMatcher.match`. */
export interface MatchOptions {
  readonly maxMatches: number;
  readonly maxLineChars: number;
  /** Wall-clock budget for this text; past it the search fails with `PATTERN_TIMEOUT`. */
  readonly timeoutMs: number;
  /** The file, quoted, for messages. */
  readonly display: string;
}

/** Caps and budget of one `LineMatcher.matchAll`. */
export interface BatchMatchOptions extends Omit<MatchOptions, 'display'> {
  /** Most matches over all the texts. Default: no cap but `maxMatches` per text. */
  readonly maxTotal?: number;
  /** Most texts with matches; later texts are not scanned. Default: no cap. */
  readonly maxFiles?: number;
  /** Each text's file, quoted, for messages. */
  readonly displays: readonly string[];
}

const MAX_PATTERN_CHARS = 1000;

// Runs inside a vm context so that its `timeout` can interrupt a regular expression that
// backtracks catastrophically: a JavaScript RegExp cannot be stopped any other way, and a stuck
// one would hold the whole event loop (and every other call) hostage. It scans a batch of texts:
// a run with a timeout starts a watchdog thread (about 0.2 ms), which one run per file would pay
// for every file.
const SCAN = new vm.Script(`(() => {
  const re = new RegExp(source, flags);
  const cut = (value) => (value.length > maxLineChars ? value.slice(0, maxLineChars) + ' [...]' : value);
  const scanLines = (text, found, maxMatches) => {
    if (literal !== '') return scanLinesWithLiteral(text, found, maxMatches);
    let line = 1;
    let start = 0;
    while (start < text.length && found.length < maxMatches) {
      let end = text.indexOf('\\n', start);
      if (end === -1) end = text.length;
      let value = text.slice(start, end);
      if (value.endsWith('\\r')) value = value.slice(0, -1);
      if (re.test(value)) found.push([line, cut(value)]);
      line += 1;
      start = end + 1;
    }
  };
  // Every match holds the literal, and a line match lies within its line: only the lines where the
  // literal occurs are tested, found by searching the whole text for it.
  const lre = literal === '' ? undefined : new RegExp(literal, ignoreCase ? 'gi' : 'g');
  const scanLinesWithLiteral = (text, found, maxMatches) => {
    lre.lastIndex = 0;
    let line = 1;
    let counted = 0;
    let hit;
    while (found.length < maxMatches && (hit = lre.exec(text)) !== null) {
      for (let at = text.indexOf('\\n', counted); at !== -1 && at < hit.index; at = text.indexOf('\\n', at + 1)) line += 1;
      const start = text.lastIndexOf('\\n', hit.index - 1) + 1;
      let end = text.indexOf('\\n', hit.index);
      if (end === -1) end = text.length;
      let value = text.slice(start, end);
      if (value.endsWith('\\r')) value = value.slice(0, -1);
      if (re.test(value)) found.push([line, cut(value)]);
      if (end >= text.length) break;
      line += 1;
      counted = end + 1;
      lre.lastIndex = end + 1;
    }
  };
  const scanMultiline = (text, found, maxMatches) => {
    re.lastIndex = 0;
    let line = 1;
    let counted = 0;
    const count = (until) => {
      for (let at = text.indexOf('\\n', counted); at !== -1 && at < until; at = text.indexOf('\\n', at + 1)) line += 1;
      counted = until;
    };
    let match;
    while (found.length < maxMatches && (match = re.exec(text)) !== null) {
      if (match[0] === '') re.lastIndex += 1;
      count(match.index);
      const startLine = line;
      const lineStart = match.index === 0 ? 0 : text.lastIndexOf('\\n', match.index - 1) + 1;
      let lineEnd = text.indexOf('\\n', match.index);
      if (lineEnd === -1) lineEnd = text.length;
      let value = text.slice(lineStart, lineEnd);
      if (value.endsWith('\\r')) value = value.slice(0, -1);
      count(match.index + Math.max(0, match[0].length - 1));
      found.push([startLine, cut(value), line]);
      // The next match starts on a later line: one result per line, like line mode.
      const next = text.indexOf('\\n', match.index + Math.max(0, match[0].length - 1));
      if (next === -1) break;
      if (re.lastIndex <= next) re.lastIndex = next + 1;
    }
  };
  const all = [];
  let total = 0;
  let withMatches = 0;
  for (const text of texts) {
    const found = [];
    if (total < maxTotal && withMatches < maxFiles) (multiline ? scanMultiline : scanLines)(text, found, Math.min(maxMatches, maxTotal - total));
    total += found.length;
    if (found.length > 0) withMatches += 1;
    all.push(found);
  }
  return JSON.stringify(all);
})()`);

// One context for every matcher: creating one costs about a millisecond, and `match` is
// synchronous, so no two scans can ever share it at the same time.
let sharedContext: vm.Context | undefined;

/**
 * A regular expression (JavaScript syntax) tested line by line, under a time budget. Create it
 * with `LineMatcher.compile`.
 */
export class LineMatcher {
  private constructor(
    readonly source: string,
    readonly flags: string,
    readonly multiline: boolean,
    /** An ASCII literal every match holds (see `requiredLiteral`), when one can be told. */
    readonly literal: string | undefined,
  ) {}

  /** Compiles `pattern`; a refusal (`INVALID_PATTERN`) when it is not a valid expression. Never throws. */
  static compile(pattern: unknown, ignoreCase: boolean, options: Omit<PatternOptions, 'ignoreCase'> = {}): LineMatcher | FsRefusal {
    if (typeof pattern !== 'string' || pattern === '') return refusal('INVALID_PATTERN', 'The pattern must be a non-empty regular expression.');
    if (pattern.length > MAX_PATTERN_CHARS) return refusal('INVALID_PATTERN', `The pattern is longer than ${MAX_PATTERN_CHARS} characters.`);
    const multiline = options.multiline === true;
    const flags = `${ignoreCase ? 'i' : ''}${multiline ? 'gm' : ''}`;
    const source = options.fixed === true ? pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : pattern;
    const literal = requiredLiteral(pattern, options.fixed === true);
    if (options.fixed === true) return new LineMatcher(source, flags, multiline, literal);
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      return refusal('INVALID_PATTERN', `${JSON.stringify(pattern)} is not a valid JavaScript regular expression: ${(error as Error).message}. Inline flags such as (?i) are not supported; use ignore_case.`);
    }
    return new LineMatcher(pattern, flags, multiline, literal);
  }

  /** The matching lines of `text`, at most `maxMatches`. Throws `FsError('PATTERN_TIMEOUT')`. */
  match(text: string, options: MatchOptions): LineMatch[] {
    return this.matchAll([text], { ...options, displays: [options.display] })[0]!;
  }

  /**
   * The matching lines of each of `texts`, in one run of the sandbox: at most `maxMatches` per
   * text and `maxTotal` in all, and no more texts with matches than `maxFiles` (the texts after
   * get none). The batch gets `timeoutMs` in all; one that runs out of it is scanned again one
   * text at a time, so only a text that alone takes longer than `timeoutMs` fails. Throws
   * `FsError('PATTERN_TIMEOUT')`, naming that text by `displays`.
   */
  matchAll(texts: readonly string[], options: BatchMatchOptions): LineMatch[][] {
    if (texts.length === 0) return [];
    try {
      return this.run(texts, options);
    } catch (error) {
      if (!(error instanceof FsError) || texts.length === 1) throw error;
    }
    const results: LineMatch[][] = [];
    let total = 0;
    let withMatches = 0;
    for (const [index, text] of texts.entries()) {
      const room = withMatches < (options.maxFiles ?? Infinity) ? Math.min(options.maxMatches, (options.maxTotal ?? Infinity) - total) : 0;
      const found = room > 0 ? this.run([text], { ...options, maxMatches: room, maxTotal: room, maxFiles: 1, displays: [options.displays[index]!] })[0]! : [];
      total += found.length;
      if (found.length > 0) withMatches += 1;
      results.push(found);
    }
    return results;
  }

  private run(texts: readonly string[], options: BatchMatchOptions): LineMatch[][] {
    sharedContext ??= vm.createContext({});
    const context = sharedContext;
    Object.assign(context, {
      source: this.source,
      flags: this.flags,
      multiline: this.multiline,
      literal: this.literal === undefined ? '' : this.literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'),
      ignoreCase: this.flags.includes('i'),
      texts,
      maxMatches: options.maxMatches,
      maxTotal: options.maxTotal ?? Infinity,
      maxFiles: options.maxFiles ?? Infinity,
      maxLineChars: options.maxLineChars,
    });
    let json: string;
    try {
      json = SCAN.runInContext(context, { timeout: options.timeoutMs }) as string;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        const display = texts.length === 1 ? options.displays[0]! : `one of ${texts.length} files`;
        throw new FsError('PATTERN_TIMEOUT', `The regular expression took more than ${options.timeoutMs} ms on ${display} (catastrophic backtracking?). Simplify it, for example avoid nested quantifiers like (a+)+.`);
      }
      throw error;
    } finally {
      context.texts = [];
    }
    return (JSON.parse(json) as [number, string, number?][][]).map((found) =>
      found.map(([line, value, endLine]) => (endLine !== undefined && endLine > line ? { line, text: value, endLine } : { line, text: value })),
    );
  }
}
