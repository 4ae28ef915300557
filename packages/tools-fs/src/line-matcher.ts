import * as vm from 'node:vm';
import { FsError, refusal, type FsRefusal } from './fs-error.js';

/** One matching line. */
export interface LineMatch {
  /** 1-based line number. */
  readonly line: number;
  /** The line, without its line ending, cut at `maxLineChars`. */
  readonly text: string;
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

const MAX_PATTERN_CHARS = 1000;

// Runs inside a vm context so that its `timeout` can interrupt a regular expression that
// backtracks catastrophically: a JavaScript RegExp cannot be stopped any other way, and a stuck
// one would hold the whole event loop (and every other call) hostage.
const SCAN = new vm.Script(`(() => {
  const re = new RegExp(source, flags);
  const found = [];
  let line = 1;
  let start = 0;
  while (start < text.length && found.length < maxMatches) {
    let end = text.indexOf('\\n', start);
    if (end === -1) end = text.length;
    let value = text.slice(start, end);
    if (value.endsWith('\\r')) value = value.slice(0, -1);
    if (re.test(value)) found.push([line, value.length > maxLineChars ? value.slice(0, maxLineChars) + ' [...]' : value]);
    line += 1;
    start = end + 1;
  }
  return JSON.stringify(found);
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
  ) {}

  /** Compiles `pattern`; a refusal (`INVALID_PATTERN`) when it is not a valid expression. Never throws. */
  static compile(pattern: unknown, ignoreCase: boolean): LineMatcher | FsRefusal {
    if (typeof pattern !== 'string' || pattern === '') return refusal('INVALID_PATTERN', 'The pattern must be a non-empty regular expression.');
    if (pattern.length > MAX_PATTERN_CHARS) return refusal('INVALID_PATTERN', `The pattern is longer than ${MAX_PATTERN_CHARS} characters.`);
    const flags = ignoreCase ? 'i' : '';
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      return refusal('INVALID_PATTERN', `${JSON.stringify(pattern)} is not a valid JavaScript regular expression: ${(error as Error).message}. Inline flags such as (?i) are not supported; use ignore_case.`);
    }
    return new LineMatcher(pattern, flags);
  }

  /** The matching lines of `text`, at most `maxMatches`. Throws `FsError('PATTERN_TIMEOUT')`. */
  match(text: string, options: MatchOptions): LineMatch[] {
    sharedContext ??= vm.createContext({});
    const context = sharedContext;
    Object.assign(context, { source: this.source, flags: this.flags, text, maxMatches: options.maxMatches, maxLineChars: options.maxLineChars });
    let json: string;
    try {
      json = SCAN.runInContext(context, { timeout: options.timeoutMs }) as string;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new FsError('PATTERN_TIMEOUT', `The regular expression took more than ${options.timeoutMs} ms on ${options.display} (catastrophic backtracking?). Simplify it, for example avoid nested quantifiers like (a+)+.`);
      }
      throw error;
    } finally {
      context.text = '';
    }
    return (JSON.parse(json) as [number, string][]).map(([line, value]) => ({ line, text: value }));
  }
}
