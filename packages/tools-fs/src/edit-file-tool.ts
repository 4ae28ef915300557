import { defineTool, ToolCallError } from '@weir/core';
import { FsError, quote } from './fs-error.js';
import { assertFileAccess } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { assertWriteApproved } from './protected-path-guard.js';
import { runFsBody } from './run-fs-body.js';
import { readWholeText } from './read-whole-text.js';

/** What edit_file returns. */
export interface EditFileValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  /** How many occurrences were replaced. */
  readonly replacements: number;
}

/** The edit_file tool: replace an exact string in a text file, once or everywhere. */
export function editFileTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'edit_file',
    description:
      'Replace exact text in an existing UTF-8 file inside the workspace. old_string must match the file exactly (whitespace and line endings included) ' +
      'and occur exactly once, unless replace_all is true, which replaces every occurrence. Reports how many were replaced. Read the file first.',
    tier: 'write',
    files: { action: 'edit', paths: ['path'] },
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        old_string: { type: 'string', description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence instead of requiring exactly one. Default false.' },
      },
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false,
    },
    examples: [{ arguments: { path: '../escape.txt', old_string: 'a', new_string: 'b' }, expect: { ok: false, code: 'PATH_OUTSIDE_WORKSPACE' } }],
    output: { render: (value: EditFileValue) => `Replaced ${value.replacements} occurrence${value.replacements === 1 ? '' : 's'} in ${value.path}.` },
    execute: (args, exec) =>
      runFsBody(exec, quote(String(args.path)), async (): Promise<EditFileValue> => {
        const display = quote(args.path);
        if (args.old_string === '') throw new ToolCallError('INVALID_ARGUMENTS', 'old_string is empty. Give the exact text to replace; to create or overwrite a whole file, use write_file.');
        if (args.old_string === args.new_string) throw new ToolCallError('INVALID_ARGUMENTS', 'old_string and new_string are the same; there is nothing to change.');
        const located = await workspace.locateOrThrow(args.path, 'write');
        assertFileAccess(exec, located.relativePath, display);
        if (located.stat === undefined) throw new FsError('NOT_FOUND', `${display} does not exist. Use write_file to create it.`);
        await assertWriteApproved(deps.protection, exec.callId, args.path, located);
        let replacements = 0;
        await workspace.replaceFile(located, display, {
          createParents: false,
          signal: exec.signal,
          produce: async (existing) => {
            if (existing === undefined) throw new FsError('NOT_FOUND', `${display} does not exist. Use write_file to create it.`);
            const text = await readWholeText(existing, limits.maxEditBytes, display);
            // split/join, not String#replace: a "$&" or "$1" in new_string must stay literal.
            const pieces = text.split(args.old_string);
            replacements = pieces.length - 1;
            if (replacements === 0) {
              const hint = text.includes('\r\n') && !args.old_string.includes('\r\n') && args.old_string.includes('\n') ? ' The file uses CRLF line endings.' : '';
              throw new FsError('NO_MATCH', `old_string does not occur in ${display}.${hint} Read the file and copy the text exactly, whitespace included.`);
            }
            if (replacements > 1 && args.replace_all !== true) {
              throw new FsError('AMBIGUOUS_MATCH', `old_string occurs ${replacements} times in ${display}. Add surrounding lines to make it unique, or set replace_all to replace every occurrence.`);
            }
            return Buffer.from(pieces.join(args.new_string), 'utf8');
          },
        });
        return { path: located.relativePath, replacements };
      }),
  });
}
