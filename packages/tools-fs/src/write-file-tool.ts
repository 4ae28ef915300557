import { defineTool } from '@weir/core';
import { quote } from './fs-error.js';
import { assertFileAccess } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { assertWriteApproved } from './protected-path-guard.js';
import { runFsBody } from './run-fs-body.js';

/** What write_file returns. */
export interface WriteFileValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  readonly bytes: number;
  /** True when the file did not exist before. */
  readonly created: boolean;
}

/** The write_file tool: create or atomically replace a UTF-8 text file inside the workspace. */
export function writeFileTool(deps: FsToolDeps) {
  const { workspace } = deps;
  return defineTool({
    name: 'write_file',
    description:
      'Create a file inside the workspace, or replace its whole content, with UTF-8 text. Missing parent directories are created. ' +
      'The write is atomic: readers see the old or the new content, never a mix. To change part of an existing file, prefer edit_file.',
    tier: 'write',
    files: { action: 'write', paths: ['path'] },
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    examples: [{ arguments: { path: '../escape.txt', content: 'x' }, expect: { ok: false, code: 'PATH_OUTSIDE_WORKSPACE' } }],
    output: { render: (value: WriteFileValue) => `${value.created ? 'Created' : 'Replaced'} ${value.path} (${value.bytes} bytes).` },
    execute: (args, exec) =>
      runFsBody(exec, quote(String(args.path)), async (): Promise<WriteFileValue> => {
        const display = quote(args.path);
        const located = await workspace.locateOrThrow(args.path, 'write');
        assertFileAccess(exec, located.relativePath, display);
        await assertWriteApproved(deps.protection, exec.callId, args.path, located);
        const data = Buffer.from(args.content, 'utf8');
        const written = await workspace.replaceFile(located, display, { createParents: true, produce: async () => data, signal: exec.signal });
        return { path: located.relativePath, bytes: written.bytes, created: written.created };
      }),
  });
}
