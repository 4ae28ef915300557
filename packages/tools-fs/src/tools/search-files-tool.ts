import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { defineTool } from '@weir/core';
import { FsError, quote } from '../fs-error.js';
import { checkGlobPattern } from '../walking/find-matching-files.js';
import { assertFileAccess, fileAccessRefusal } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { LineMatcher, type LineMatch } from '../walking/line-matcher.js';
import type { Located } from '../confinement/locate-physical.js';
import type { HeldDirectory } from '../confinement/held-directory.js';
import { printableName } from './printable-name.js';
import { readFileBytes } from '../reading/read-file-bytes.js';
import { ripgrepAvailable, ripgrepCandidates, type RipgrepListing } from '../walking/ripgrep-candidates.js';
import { runFsBody } from './run-fs-body.js';
import { walkCandidates } from '../walking/walk-candidates.js';
import { walkFiles } from '../walking/walk-files.js';
import type { WalkedFile, WalkOptions } from '../walking/walk-rules.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
const MAX_CONTEXT = 20;
// A batch for the regex sandbox: at most this many files, or about this many characters.
const BATCH_FILES = 256;
const BATCH_CHARS = 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One line of a content result: a match, or a context line around one. */
export interface SearchMatch {
  /** File relative to the workspace root. */
  readonly path: string;
  readonly line: number;
  readonly text: string;
  /** A context line (not matching), shown around a match. */
  readonly context?: true;
}

/** A file with matches, and how many lines match (files_with_matches and count modes). */
export interface SearchFileCount {
  readonly path: string;
  readonly count: number;
}

/** What search_files returns. */
export interface SearchFilesValue {
  readonly mode: 'content' | 'files_with_matches' | 'count';
  /** content mode: matching lines (and context lines), in file order. */
  readonly matches: readonly SearchMatch[];
  /** files_with_matches and count modes: one entry per file. */
  readonly files: readonly SearchFileCount[];
  readonly filesSearched: number;
  /** Binary files, and files over the size limit, that were not searched. */
  readonly filesSkipped: number;
  /** True when results may be missing: past the limit (see `nextOffset`) or a crawl too large to finish. */
  readonly truncated: boolean;
  /** The offset that shows the next results, when there are more. */
  readonly nextOffset?: number;
  /** Which engine listed the candidate files: ripgrep, or the JavaScript walk alone. */
  readonly engine: 'ripgrep' | 'javascript';
}

interface FileResult {
  readonly path: string;
  readonly matches: readonly LineMatch[];
  readonly lines: readonly string[] | undefined;
}

/** The search_files tool: lines matching a regular expression in text files of the workspace, like ripgrep. */
export function searchFilesTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'search_files',
    description:
      'Search text files inside the workspace for a regular expression (JavaScript syntax), like ripgrep: .gitignore, .ignore and .rgignore rules are respected ' +
      '(include_ignored to search ignored files too), hidden files and directories are skipped unless hidden is true, links are not followed. ' +
      'output_mode: "content" (default, "path:line: text"), "files_with_matches" (paths) or "count" ("path:N"). ' +
      `At most limit results (default ${limits.maxEntries}); offset skips results to page on. A glob without "/" ("*.ts") matches file names at any depth. ` +
      `Binary files and files over ${limits.maxSearchFileBytes} bytes are skipped.`,
    tier: 'read-only',
    files: { action: 'read', paths: [{ argument: 'path', kind: 'any', default: '.' }] },
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression, JavaScript syntax, e.g. "function\\\\s+main". With fixed_strings, a literal string.' },
        path: { type: 'string', description: 'File or directory to search, relative to the workspace root. Default ".".' },
        glob: { type: 'string', description: 'Only files matching this glob: "*.ts" (any depth) or "src/**/*.ts" (relative to path).' },
        ignore_case: { type: 'boolean', description: 'Match case-insensitively. Default false.' },
        fixed_strings: { type: 'boolean', description: 'Take pattern as a literal string. Default false.' },
        multiline: { type: 'boolean', description: 'Let matches span lines (use \\n in the pattern). Default false.' },
        context: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT, description: 'Lines of context before and after each match (content mode). Default 0.' },
        output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'], description: 'What to return. Default "content".' },
        limit: { type: 'integer', minimum: 1, description: `Most results (lines, or files). Default ${limits.maxEntries}.` },
        offset: { type: 'integer', minimum: 0, description: 'Results to skip, to page on. Default 0.' },
        hidden: { type: 'boolean', description: 'Search hidden files and directories too. Default false.' },
        include_ignored: { type: 'boolean', description: 'Search files that .gitignore (or .ignore) rules leave out. Default false.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    examples: [{ arguments: { pattern: '(unclosed' }, expect: { ok: false, code: 'INVALID_PATTERN' } }],
    output: { render: renderSearchFiles },
    execute: (args, exec) => {
      const input = args.path ?? '.';
      return runFsBody(exec, quote(String(input)), async (): Promise<SearchFilesValue> => {
        const fixed = args.fixed_strings === true;
        const ignoreCase = args.ignore_case === true;
        const matcher = LineMatcher.compile(args.pattern, ignoreCase, { fixed, multiline: args.multiline === true });
        if (!(matcher instanceof LineMatcher)) throw FsError.from(matcher);
        if (args.glob !== undefined) {
          const invalidGlob = checkGlobPattern(args.glob);
          if (invalidGlob) throw FsError.from(invalidGlob);
        }
        const mode = args.output_mode ?? 'content';
        const limit = Math.min(args.limit ?? limits.maxEntries, limits.maxEntries);
        const offset = args.offset ?? 0;
        const contextLines = mode === 'content' ? (args.context ?? 0) : 0;
        const literal = matcher.literal;
        const needle = literal === undefined ? undefined : ignoreCase ? literal.toLowerCase() : literal;
        // The literal is ASCII: its bytes are the same in UTF-8 and Latin-1, so it can be looked for before decoding.
        const needleBytes = literal === undefined || ignoreCase ? undefined : Buffer.from(literal, 'latin1');

        const target = await workspace.inspect(input);
        if (!target.ok) throw FsError.from(target);
        if (target.stat === undefined) throw new FsError('NOT_FOUND', `${quote(input)} does not exist. Use list_dir or find_files to see what exists.`);

        let filesSearched = 0;
        let filesSkipped = 0;
        let results = 0;
        let stopped = false;
        const found: FileResult[] = [];
        // One result past the page tells whether there are more.
        const wanted = offset + limit + 1;
        // Texts that may match wait in a batch: one run of the regex sandbox scans them all.
        let pending: { path: string; text: string }[] = [];
        let pendingChars = 0;
        const flush = () => {
          if (pending.length === 0 || stopped) return;
          const batch = pending;
          pending = [];
          pendingChars = 0;
          const room = wanted - results;
          const all = matcher.matchAll(
            batch.map((file) => file.text),
            mode === 'content'
              ? { maxMatches: room, maxTotal: room, maxLineChars: limits.maxLineChars, timeoutMs: limits.regexTimeoutMs, displays: batch.map((file) => quote(file.path)) }
              : { maxMatches: 1_000_000, maxFiles: room, maxLineChars: limits.maxLineChars, timeoutMs: limits.regexTimeoutMs, displays: batch.map((file) => quote(file.path)) },
          );
          for (const [index, matches] of all.entries()) {
            if (matches.length === 0 || stopped) continue;
            const { path, text } = batch[index]!;
            found.push({ path, matches, lines: contextLines > 0 || matches.some((match) => match.endLine !== undefined) ? text.split('\n') : undefined });
            results += mode === 'content' ? matches.reduce((sum, match) => sum + 1 + (match.endLine ?? match.line) - match.line, 0) : 1;
            if (results >= wanted) stopped = true;
          }
        };
        const take = (path: string, text: string | undefined) => {
          if (text === undefined) {
            filesSkipped += 1;
            return;
          }
          filesSearched += 1;
          if (needle !== undefined && !(ignoreCase ? text.toLowerCase() : text).includes(needle)) return;
          pending.push({ path, text });
          pendingChars += text.length;
          if (pending.length >= BATCH_FILES || pendingChars >= BATCH_CHARS) flush();
        };

        let incomplete = false;
        let engine: SearchFilesValue['engine'] = 'javascript';
        assertFileAccess(exec, target.relativePath, quote(String(input)));
        if (!target.stat.isDirectory()) {
          take(target.relativePath, await readNamedFile(deps, target, input));
          flush();
        } else {
          const walkOptions = { glob: args.glob, hidden: args.hidden === true, includeIgnored: args.include_ignored === true, signal: exec.signal };
          const visit = async (directory: HeldDirectory, files: readonly WalkedFile[]) => {
            if (stopped) return;
            for (const file of files) {
              if (stopped) break;
              // A file a safety rule refuses is never read: left out.
              if (fileAccessRefusal(exec, file.relativePath) !== undefined) continue;
              take(file.relativePath, await readWalkedFile(deps, directory, file, needleBytes));
            }
            // Reads are synchronous (much faster for many small files): let other work run between directories.
            await new Promise((resolve) => setImmediate(resolve));
          };
          const listed = deps.ripgrep && literal !== undefined && workspace.strategy === 'proc' && (await ripgrepAvailable()) ? await listWithRipgrep(target.path, literal, ignoreCase, walkOptions, limits.maxSearchFileBytes) : undefined;
          if (listed !== undefined) {
            // Only ripgrep's candidates are walked to, opened and matched; the count is the files it searched.
            engine = 'ripgrep';
            await walkCandidates(deps, target, listed.paths, walkOptions, visit);
            if (listed.searched !== undefined) filesSearched = Math.max(filesSearched, listed.searched - filesSkipped);
          } else {
            incomplete = (await walkFiles(deps, target, walkOptions, visit)).incomplete;
          }
          flush();
        }
        return page(found, mode, offset, limit, contextLines, { filesSearched, filesSkipped, incomplete: incomplete || stopped, engine });
      });
    },
  });
}

// ripgrep's list of the files under `directory` holding `literal`, asked to include everything the
// walk may include (hidden names whenever the glob could name one; `.git` and `node_modules` only
// when the glob names them), so that it can only list more; `undefined` when it failed.
function listWithRipgrep(directory: string, literal: string, ignoreCase: boolean, options: WalkOptions, maxFileBytes: number): Promise<RipgrepListing | undefined> {
  const glob = options.glob;
  return ripgrepCandidates({
    directory,
    literal,
    ignoreCase,
    hidden: options.hidden || (glob !== undefined && glob.includes('.')),
    includeIgnored: options.includeIgnored,
    skipDirectories: ['.git', 'node_modules'].filter((name) => glob === undefined || !glob.includes(name)),
    maxFileBytes,
    signal: options.signal,
  });
}

// One buffer for the many small files of a walk: the text is decoded out of it before the next read.
const scratch = Buffer.allocUnsafe(256 * 1024);

// The text of a file found by the walk, opened no-follow beneath its held directory and checked on
// its descriptor; `undefined` when it is binary, too large, or no longer a regular file (skipped,
// never followed); `''` for a text without `bytes` (an ASCII literal every match holds), which is
// looked for in the bytes first: a file without it is never decoded.
async function readWalkedFile(deps: FsToolDeps, directory: HeldDirectory, file: WalkedFile, bytes: Buffer | undefined): Promise<string | undefined> {
  const { workspace, limits } = deps;
  if (workspace.strategy !== 'proc') {
    // Without /proc there is no opening beneath a descriptor: through the validator, one path at a time.
    const located = await workspace.locate(file.relativePath, 'read');
    if (!located.ok) return undefined;
    return readNamedFile(deps, located, file.relativePath, true);
  }
  let fd: number;
  try {
    fd = openSync(directory.child(file.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    // One read into the shared buffer: a read that returns less than asked is the end of a regular
    // file (Linux, local file systems), so most files cost open, read and close. The descriptor is
    // checked (a regular file) before anything read from it is used, and whenever the buffer fills.
    const max = limits.maxSearchFileBytes;
    const asked = Math.min(scratch.length, max + 1);
    let filled = readSync(fd, scratch, 0, asked, 0);
    let content: Buffer;
    if (filled < asked) {
      content = scratch.subarray(0, filled);
    } else {
      if (asked > max) return undefined;
      const info = fstatSync(fd);
      if (!info.isFile() || info.size > max) return undefined;
      // A larger file gets a buffer of its own, so the shared one stays small.
      const buffer = Buffer.allocUnsafe(Math.max(info.size, filled));
      scratch.copy(buffer, 0, 0, filled);
      while (filled < buffer.length) {
        const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      content = buffer.subarray(0, filled);
    }
    if (content.includes(0)) return undefined;
    if (bytes !== undefined && !content.includes(bytes)) return '';
    if (!fstatSync(fd).isFile()) return undefined;
    return decodeSearchable(content);
  } catch {
    // A read error (the name now holds something else): skipped.
    return undefined;
  } finally {
    closeSync(fd);
  }
}

// A file named as the search path (or any file under the `path` strategy), through the validator and the opener.
async function readNamedFile(deps: FsToolDeps, located: Located, input: string, quiet = false): Promise<string | undefined> {
  const { workspace, limits } = deps;
  const checked = await workspace.locate(input, 'read');
  if (!checked.ok) {
    if (quiet) return undefined;
    throw FsError.from(checked);
  }
  if (located.stat !== undefined && located.stat.size > BigInt(limits.maxSearchFileBytes)) return undefined;
  let file;
  try {
    file = await workspace.openFile(checked, quote(input));
  } catch (error) {
    if (error instanceof FsError && quiet) return undefined;
    throw error;
  }
  try {
    return decodeSearchable(await readFileBytes(file, limits.maxSearchFileBytes, quote(input)));
  } catch (error) {
    if (error instanceof FsError && error.code === 'TOO_LARGE') return undefined;
    throw error;
  } finally {
    await file.handle.close();
  }
}

// UTF-8, or Latin-1 when not; `undefined` for binary (a NUL byte).
function decodeSearchable(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    const text = utf8.decode(bytes);
    return text.startsWith('\ufeff') ? text.slice(1) : text;
  } catch {
    return bytes.toString('latin1');
  }
}

function page(
  found: readonly FileResult[],
  mode: SearchFilesValue['mode'],
  offset: number,
  limit: number,
  contextLines: number,
  summary: { filesSearched: number; filesSkipped: number; incomplete: boolean; engine: SearchFilesValue['engine'] },
): SearchFilesValue {
  const base = { mode, filesSearched: summary.filesSearched, filesSkipped: summary.filesSkipped, engine: summary.engine };
  if (mode !== 'content') {
    const all = found.map((file) => ({ path: file.path, count: file.matches.reduce((sum, match) => sum + 1 + (match.endLine ?? match.line) - match.line, 0) }));
    const files = all.slice(offset, offset + limit);
    const more = all.length > offset + limit;
    return { ...base, matches: [], files, truncated: more || summary.incomplete, ...(more ? { nextOffset: offset + limit } : {}) };
  }
  const matches: SearchMatch[] = [];
  let index = 0;
  let more = false;
  for (const file of found) {
    const shown = new Map<number, SearchMatch>();
    for (const match of file.matches) {
      const last = match.endLine ?? match.line;
      for (let line = match.line; line <= last; line += 1) {
        index += 1;
        if (index <= offset) continue;
        if (index > offset + limit) {
          more = true;
          break;
        }
        const text = line === match.line ? match.text : cutLine(file.lines?.[line - 1] ?? '');
        shown.set(line, { path: file.path, line, text });
        for (let near = Math.max(1, line - contextLines); near <= line + contextLines && file.lines !== undefined && near <= file.lines.length; near += 1) {
          if (near !== line && !shown.has(near)) shown.set(near, { path: file.path, line: near, text: cutLine(file.lines[near - 1]!), context: true });
        }
      }
      if (more) break;
    }
    // A context line that is itself a match stays a match.
    matches.push(...[...shown.values()].sort((a, b) => a.line - b.line));
    if (more) break;
  }
  return { ...base, matches, files: [], truncated: more || summary.incomplete, ...(more ? { nextOffset: offset + limit } : {}) };
}

function cutLine(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  return text.length > 500 ? `${text.slice(0, 500)} [...]` : text;
}

/** ripgrep's shapes: `path:line: text` for a match, `path-line- text` for context, `--` between groups; paths; `path:N`. */
export function renderSearchFiles(value: SearchFilesValue): string {
  const lines: string[] = [];
  if (value.mode === 'content') {
    let previous: SearchMatch | undefined;
    const anyContext = value.matches.some((other) => other.context);
    for (const match of value.matches) {
      const adjacent = previous !== undefined && previous.path === match.path && previous.line + 1 === match.line;
      if (previous !== undefined && !adjacent && (match.context || previous.context || anyContext)) lines.push('--');
      lines.push(`${printableName(match.path)}${match.context ? '-' : ':'}${match.line}${match.context ? '-' : ':'} ${match.text}`);
      previous = match;
    }
  } else {
    for (const file of value.files) lines.push(value.mode === 'count' ? `${printableName(file.path)}:${file.count}` : printableName(file.path));
  }
  if (lines.length === 0) lines.push('(no matches)');
  const skipped = value.filesSkipped > 0 ? `, ${value.filesSkipped} skipped (binary or too large)` : '';
  const shown = value.mode === 'content' ? value.matches.filter((match) => !match.context).length : value.files.length;
  const unit = value.mode === 'content' ? 'matching line' : 'file';
  lines.push(`[${shown} ${unit}${shown === 1 ? '' : 's'} shown; ${value.filesSearched} file${value.filesSearched === 1 ? '' : 's'} searched${skipped}]`);
  if (value.nextOffset !== undefined) lines.push(`[... more results: continue with offset=${value.nextOffset}, or narrow the pattern, the glob or the path.]`);
  else if (value.truncated) lines.push('[... truncated: more may match than shown (the crawl stopped at its cap). Narrow the glob or the path.]');
  return lines.join('\n');
}
