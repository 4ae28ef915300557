import { defineTool, type ToolExecution } from '@weir/core';
import { FsError, quote } from './fs-error.js';
import { checkGlobPattern, findMatchingFiles } from './find-matching-files.js';
import { assertFileAccess, fileAccessRefusal } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { LineMatcher } from './line-matcher.js';
import { printableName } from './printable-name.js';
import { readWholeText } from './read-whole-text.js';
import { runFsBody } from './run-fs-body.js';

/** One matching line found by search_files. */
export interface SearchMatch {
  /** File relative to the workspace root. */
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** What search_files returns. */
export interface SearchFilesValue {
  readonly matches: readonly SearchMatch[];
  readonly filesSearched: number;
  /** Binary files, and files over the size limit, that were not searched. */
  readonly filesSkipped: number;
  /** True when matches may be missing (the cap, or a crawl too large to finish). */
  readonly truncated: boolean;
}

/** The search_files tool: lines matching a regular expression in text files of the workspace. */
export function searchFilesTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'search_files',
    description:
      'Search text files inside the workspace for a regular expression (JavaScript syntax), line by line. ' +
      `Returns "path:line: text" for at most ${limits.maxEntries} matching lines. Binary files and files over ${limits.maxSearchFileBytes} bytes are skipped. ` +
      'Narrow the files with glob (e.g. "**/*.ts") and path.',
    tier: 'read-only',
    files: { action: 'read', paths: [{ argument: 'path', kind: 'any', default: '.' }] },
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression, JavaScript syntax, e.g. "function\\\\s+main".' },
        path: { type: 'string', description: 'File or directory to search, relative to the workspace root. Default ".".' },
        glob: { type: 'string', description: 'Only files matching this glob (relative to path). Default "**/*".' },
        ignore_case: { type: 'boolean', description: 'Match case-insensitively. Default false.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    examples: [{ arguments: { pattern: '(unclosed' }, expect: { ok: false, code: 'INVALID_PATTERN' } }],
    output: { render: renderSearchFiles },
    execute: (args, exec) => {
      const input = args.path ?? '.';
      return runFsBody(exec, quote(String(input)), async (): Promise<SearchFilesValue> => {
        const matcher = LineMatcher.compile(args.pattern, args.ignore_case ?? false);
        if (!(matcher instanceof LineMatcher)) throw FsError.from(matcher);
        const globPattern = args.glob ?? '**/*';
        const invalidGlob = checkGlobPattern(globPattern);
        if (invalidGlob) throw FsError.from(invalidGlob);

        const target = await workspace.inspect(input);
        if (!target.ok) throw FsError.from(target);
        if (target.stat === undefined) throw new FsError('NOT_FOUND', `${quote(input)} does not exist. Use list_dir or find_files to see what exists.`);
        let files: readonly string[];
        let truncated = false;
        const namedFile = target.stat?.isDirectory() !== true;
        if (!namedFile) {
          assertFileAccess(exec, target.relativePath, quote(input));
          const found = await findMatchingFiles(deps, target, globPattern, exec.signal);
          files = found.paths;
          truncated = found.incomplete;
        } else {
          files = [input];
        }

        const matches: SearchMatch[] = [];
        let filesSearched = 0;
        let filesSkipped = 0;
        for (const file of files) {
          exec.signal.throwIfAborted();
          if (matches.length >= limits.maxEntries) {
            truncated = true;
            break;
          }
          const text = await readSearchable(deps, exec, file, namedFile);
          if (text === undefined) {
            filesSkipped += 1;
            continue;
          }
          filesSearched += 1;
          const display = quote(text.path);
          const found = matcher.match(text.content, {
            maxMatches: limits.maxEntries - matches.length + 1,
            maxLineChars: limits.maxLineChars,
            timeoutMs: limits.regexTimeoutMs,
            display,
          });
          for (const { line, text: lineText } of found) matches.push({ path: text.path, line, text: lineText });
        }
        if (matches.length > limits.maxEntries) {
          matches.length = limits.maxEntries;
          truncated = true;
        }
        return { matches, filesSearched, filesSkipped, truncated };
      });
    },
  });
}

/**
 * The text of one file for searching, through the validator and the no-follow opener, or
 * `undefined` when it is binary, too large, or refused (a file that changed into a link since the
 * crawl is skipped, never followed).
 */
async function readSearchable({ workspace, limits }: FsToolDeps, exec: ToolExecution, input: string, named: boolean): Promise<{ path: string; content: string } | undefined> {
  const located = await workspace.locate(input, 'read');
  if (!located.ok) {
    // A file named directly must say why it cannot be searched; one found by the crawl is skipped.
    if (named) throw FsError.from(located);
    return undefined;
  }
  // A file a safety rule refuses is never read: named, the call fails; found by the crawl, it is left out.
  if (named) assertFileAccess(exec, located.relativePath, quote(input));
  else if (fileAccessRefusal(exec, located.relativePath) !== undefined) return undefined;
  if (located.stat !== undefined && located.stat.size > BigInt(limits.maxSearchFileBytes)) return undefined;
  let file;
  try {
    file = await workspace.openFile(located, quote(input));
  } catch (error) {
    if (error instanceof FsError && !named) return undefined;
    throw error;
  }
  try {
    return { path: located.relativePath, content: await readWholeText(file, limits.maxSearchFileBytes, quote(input)) };
  } catch (error) {
    if (error instanceof FsError && (error.code === 'BINARY_FILE' || error.code === 'TOO_LARGE')) return undefined;
    throw error;
  } finally {
    await file.handle.close();
  }
}

/** `path:line: text` per match, a summary, and a truncation marker when matches may be missing. */
export function renderSearchFiles(value: SearchFilesValue): string {
  const lines = value.matches.map((match) => `${printableName(match.path)}:${match.line}: ${match.text}`);
  if (lines.length === 0) lines.push('(no matches)');
  const skipped = value.filesSkipped > 0 ? `, ${value.filesSkipped} skipped (binary, too large or changed)` : '';
  lines.push(`[${value.matches.length} matching line${value.matches.length === 1 ? '' : 's'} in ${value.filesSearched} file${value.filesSearched === 1 ? '' : 's'} searched${skipped}]`);
  if (value.truncated) lines.push('[... truncated: more lines may match than shown. Narrow the pattern, the glob or the path.]');
  return lines.join('\n');
}
