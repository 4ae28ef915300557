import { defineTool } from '@weir/core';
import { FsError, quote } from './fs-error.js';
import { checkGlobPattern, findMatchingFiles } from './find-matching-files.js';
import { assertFileAccess, fileAccessRefusal } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { printableName } from './printable-name.js';
import { runFsBody } from './run-fs-body.js';

/** What find_files returns. */
export interface FindFilesValue {
  /** Matching files, relative to the workspace root, sorted. */
  readonly paths: readonly string[];
  /** True when matches were left out (the cap, or a crawl too large to finish). */
  readonly truncated: boolean;
}

/** The find_files tool: files matching a glob under a directory of the workspace, capped. */
export function findFilesTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'find_files',
    description:
      'Find files inside the workspace by glob pattern ("**/*.ts", "src/**/test_*.py", "*.{json,yaml}"). ' +
      `Returns paths relative to the workspace root, sorted, at most ${limits.maxEntries}. Symbolic links are not followed; .git and node_modules are skipped unless the pattern names them.`,
    tier: 'read-only',
    files: { action: 'list', paths: [{ argument: 'path', kind: 'directory', default: '.' }] },
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob pattern, relative to path.' },
        path: { type: 'string', description: 'Directory to search, relative to the workspace root. Default ".".' },
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
        const found = await findMatchingFiles(deps, directory, args.pattern, exec.signal);
        // A file a safety rule refuses is left out.
        const paths = found.paths.filter((path) => fileAccessRefusal(exec, path) === undefined);
        const truncated = found.incomplete || paths.length > limits.maxEntries;
        return { paths: paths.slice(0, limits.maxEntries), truncated };
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
