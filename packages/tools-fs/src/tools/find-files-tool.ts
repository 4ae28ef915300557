import { lstatSync } from 'node:fs';
import { defineTool } from '@weir/core';
import { FsError, quote } from '../fs-error.js';
import { checkGlobPattern } from '../walking/find-matching-files.js';
import { assertFileAccess, fileAccessRefusal } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { printableName } from './printable-name.js';
import { runFsBody } from './run-fs-body.js';
import { walkFiles } from '../walking/walk-files.js';

/** What find_files returns. */
export interface FindFilesValue {
  /** Matching files, relative to the workspace root, newest first (by modification time), then by path. */
  readonly paths: readonly string[];
  /** True when matches were left out (the cap, or a crawl too large to finish). */
  readonly truncated: boolean;
}

/** The find_files tool: files matching a glob under a directory of the workspace, newest first, capped. */
export function findFilesTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'find_files',
    description:
      'Find files inside the workspace by glob pattern: "*.ts" or "package.json" (a name at any depth), "src/**/test_*.py" (a path under path), "*.{json,yaml}". ' +
      `Returns paths relative to the workspace root, newest first, at most ${limits.maxEntries}. Like ripgrep: .gitignore, .ignore and .rgignore rules are respected ` +
      '(include_ignored to list ignored files too), hidden files and directories are left out unless hidden is true or the pattern names them, links are not followed, ' +
      '.git and node_modules are skipped unless the pattern names them.',
    tier: 'read-only',
    files: { action: 'list', paths: [{ argument: 'path', kind: 'directory', default: '.' }] },
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob pattern; without "/" it matches file names at any depth.' },
        path: { type: 'string', description: 'Directory to search, relative to the workspace root. Default ".".' },
        hidden: { type: 'boolean', description: 'List hidden files and directories too. Default false.' },
        include_ignored: { type: 'boolean', description: 'List files that .gitignore (or .ignore) rules leave out. Default false.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    examples: [{ arguments: { pattern: '../**/*.pem' }, expect: { ok: false, code: 'INVALID_PATTERN' } }],
    output: { render: renderFindFiles },
    execute: (args, exec) => {
      const input = args.path ?? '.';
      return runFsBody(exec, quote(String(input)), async (): Promise<FindFilesValue> => {
        const invalid = checkGlobPattern(args.pattern);
        if (invalid) throw FsError.from(invalid);
        const directory = await workspace.locateOrThrow(input, 'list');
        assertFileAccess(exec, directory.relativePath, quote(String(input)));
        const found: { path: string; mtime: number }[] = [];
        const walked = await walkFiles(deps, directory, { glob: args.pattern, hidden: args.hidden === true, includeIgnored: args.include_ignored === true, signal: exec.signal }, async (open, files) => {
          for (const file of files) {
            try {
              // lstat through the held directory: the name as listed, never followed.
              found.push({ path: file.relativePath, mtime: lstatSync(open.child(file.name)).mtimeMs });
            } catch {
              // Gone since the listing: left out.
            }
          }
        });
        found.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        // Every path returned is validated again, in order, until the page is full.
        const paths: string[] = [];
        let index = 0;
        for (; index < found.length && paths.length < limits.maxEntries; index += 1) {
          const candidate = found[index]!.path;
          // A file a safety rule refuses is left out.
          if (fileAccessRefusal(exec, candidate) === undefined && (await workspace.locate(candidate, 'read')).ok) paths.push(candidate);
        }
        return { paths, truncated: walked.incomplete || index < found.length };
      });
    },
  });
}

/** One path per line, then a truncation marker when matches were left out. */
export function renderFindFiles(value: FindFilesValue): string {
  const lines = value.paths.map(printableName);
  if (lines.length === 0) lines.push('(no files match)');
  if (value.truncated) lines.push('[... truncated: more files may match than shown. Narrow the pattern or the path.]');
  return lines.join('\n');
}
