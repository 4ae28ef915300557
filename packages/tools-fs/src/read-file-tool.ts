import { defineTool } from '@weir/core';
import { FsError, quote } from './fs-error.js';
import { assertFileAccess } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { readTextLines } from './read-text-lines.js';
import { runFsBody } from './run-fs-body.js';

/** What read_file returns; the model reads its rendering. */
export interface ReadFileValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  readonly content: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Lines in the file, when it was read to its end. */
  readonly totalLines: number | undefined;
  /** True when the byte cap cut line `endLine`. */
  readonly truncated: boolean;
  /** True when lines follow `endLine`. */
  readonly more: boolean;
}

/** The read_file tool: UTF-8 text of one file inside the workspace, whole or a range of lines. */
export function readFileTool({ workspace, limits }: FsToolDeps) {
  return defineTool({
    name: 'read_file',
    description:
      `Read a UTF-8 text file inside the workspace. Give the path relative to the workspace root. ` +
      `Files over ${limits.maxReadBytes} bytes must be read in parts: pass offset (first line, 1-based) and limit (number of lines). ` +
      `Binary files are refused.`,
    tier: 'read-only',
    files: { action: 'read', paths: ['path'] },
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root, e.g. "src/index.ts".' },
        offset: { type: 'integer', minimum: 1, description: 'First line to read, 1-based. Default 1.' },
        limit: { type: 'integer', minimum: 1, description: 'Number of lines to read. Default: to the end of the file.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    examples: [
      { arguments: { path: '../outside.txt' }, expect: { ok: false, code: 'PATH_OUTSIDE_WORKSPACE' } },
      { arguments: { path: '~/.ssh/id_ed25519' }, expect: { ok: false, code: 'INVALID_PATH' } },
    ],
    output: { render: renderReadFile },
    execute: (args, exec) =>
      runFsBody(exec, quote(String(args.path)), async (): Promise<ReadFileValue> => {
        const display = quote(args.path);
        const located = await workspace.locateOrThrow(args.path, 'read');
        assertFileAccess(exec, located.relativePath, display);
        const file = await workspace.openFile(located, display);
        try {
          if (file.stat.nlink > 1n) {
            // Allowed (pnpm hard-links node_modules); recorded so an audit can find it (catalogue row 31).
            exec.logger.info({ path: located.relativePath, nlink: Number(file.stat.nlink) }, 'read_file: the file has several hard links');
          }
          const ranged = args.offset !== undefined || args.limit !== undefined;
          if (!ranged && file.stat.size > BigInt(limits.maxReadBytes)) {
            throw new FsError(
              'TOO_LARGE',
              `${display} is ${file.stat.size} bytes, over the ${limits.maxReadBytes}-byte limit for reading a whole file. Read it in parts with offset and limit (lines), or find what you need with search_files.`,
            );
          }
          const lines = await readTextLines(file.handle, {
            offset: args.offset ?? 1,
            limit: args.limit ?? Number.POSITIVE_INFINITY,
            maxBytes: limits.maxReadBytes,
            maxScanBytes: limits.maxScanBytes,
            display,
            signal: exec.signal,
          });
          return {
            path: located.relativePath,
            content: lines.text,
            startLine: lines.startLine,
            endLine: lines.endLine,
            totalLines: lines.totalLines,
            truncated: lines.truncated,
            more: lines.more,
          };
        } finally {
          await file.handle.close();
        }
      }),
  });
}

/** The content as is; after a part of the file, a note saying which part and how to go on. */
export function renderReadFile(value: ReadFileValue): string {
  const { path, content, startLine, endLine, totalLines, truncated, more } = value;
  if (totalLines === 0) return `(${path} is empty)`;
  if (endLine < startLine) return `(${path} has ${totalLines ?? 'fewer'} lines; there is nothing at line ${startLine})`;
  if (startLine === 1 && !truncated && !more) return content;
  const of = totalLines === undefined ? '' : ` of ${totalLines}`;
  const cut = truncated ? ` Line ${endLine} was cut at the size limit.` : '';
  const next = more ? ` Continue with offset=${endLine + 1}.` : '';
  return `${content}${content.endsWith('\n') ? '' : '\n'}[lines ${startLine}-${endLine}${of} of ${path}.${cut}${next}]`;
}
