import type { BigIntStats } from 'node:fs';
import { defineTool, ToolCallError } from '@weir/core';
import { describeMatch, editText, numberedLines, type MatchKind } from '../editing/edit-text.js';
import { FsError, quote } from '../fs-error.js';
import { assertFileAccess } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { assertWriteApproved } from '../confinement/protected-path-guard.js';
import { hashSnapshot } from '../editing/read-ledger.js';
import { readWholeText } from '../reading/read-whole-text.js';
import { requiredArgument } from './required-argument.js';
import { runFsBody } from './run-fs-body.js';
import { dominantEol, encodeText } from '../reading/text-format.js';
import { sourceBytes, sourcePath } from './text-source.js';
import { withWriteLock } from '../editing/with-write-lock.js';
import { witnessWrite } from '../checkpoints/write-witness.js';

/** Lines shown before and after an edit. */
const SNIPPET_CONTEXT = 3;
/** Most lines of an edit shown. */
const SNIPPET_MAX_LINES = 30;

/** What edit_file returns. */
export interface EditFileValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  /** How many occurrences were replaced. */
  readonly replacements: number;
  /** How old_string was found: exactly, or with one tolerance. */
  readonly match: MatchKind;
  /** Numbered lines around the (first) change, as the file now is. */
  readonly snippet: string;
  /** After a tolerant match: how new_string was written (re-indented to the file's tabs, its quotes, or kept as given and why). */
  readonly style?: string;
}

/** The edit_file tool: replace text in a text file, once or everywhere, keeping its encoding and line endings. */
export function editFileTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'edit_file',
    description:
      'Replace text in an existing text file inside the workspace. Read the file first (an edit of a file not read, or changed since, is refused). ' +
      'old_string must occur exactly once unless replace_all is true, which replaces every occurrence. Copy old_string from read_file without the line numbers. ' +
      "Line endings are matched whatever they are and the file's own are kept. When no exact match exists, one unique match ignoring trailing whitespace, indentation, " +
      "or curly quotes and dashes is used, new_string is then written in the file's indentation and quotes, and the result says so. A failure shows the closest lines. The result shows the changed lines.",
    tier: 'write',
    files: { action: 'edit', paths: ['path'] },
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        old_string: { type: 'string', description: 'The text to replace, copied from the file (without line numbers).' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence instead of requiring exactly one. Default false.' },
        file_path: { type: 'string', description: 'Alias of path.' },
        oldString: { type: 'string', description: 'Alias of old_string.' },
        newString: { type: 'string', description: 'Alias of new_string.' },
        replaceAll: { type: 'boolean', description: 'Alias of replace_all.' },
      },
      additionalProperties: false,
    },
    examples: [{ arguments: { path: '../escape.txt', old_string: 'a', new_string: 'b' }, expect: { ok: false, code: 'PATH_OUTSIDE_WORKSPACE' } }],
    output: { render: renderEditFile },
    execute: (args, exec) =>
      runFsBody(exec, quote(String(args.path)), async (): Promise<EditFileValue> => {
        const example = '{"path": "src/a.ts", "old_string": "...", "new_string": "..."}';
        const path = requiredArgument(args.path, 'path', 'edit_file', example);
        const oldString = requiredArgument(args.old_string, 'old_string', 'edit_file', example);
        const newString = requiredArgument(args.new_string, 'new_string', 'edit_file', example);
        const display = quote(path);
        if (oldString === '') throw new ToolCallError('INVALID_ARGUMENTS', 'old_string is empty. Give the exact text to replace; to create or overwrite a whole file, use write_file.');
        if (oldString === newString) throw new ToolCallError('INVALID_ARGUMENTS', 'old_string and new_string are the same; there is nothing to change.');
        return withWriteLock(deps, path, display, async (located) => {
          assertFileAccess(exec, located.relativePath, display);
          if (located.stat === undefined) throw new FsError('NOT_FOUND', `${display} does not exist. Use write_file to create it.`);
          await assertWriteApproved(deps.protection, exec.callId, path, located);
          const routed = await editThroughSource(deps, located.relativePath, located.stat, display, { oldString, newString, replaceAll: args.replace_all === true });
          if (routed !== undefined) return routed;
          let value: EditFileValue | undefined;
          let written: Buffer | undefined;
          const replaced = await workspace.replaceFile(located, display, {
            createParents: false,
            signal: exec.signal,
            produce: async (existing) => {
              if (existing === undefined) throw new FsError('NOT_FOUND', `${display} does not exist. Use write_file to create it.`);
              const whole = await readWholeText(existing, limits.maxEditBytes, display);
              deps.reads.assertCurrent(located.relativePath, display, { bytes: whole.bytes, stat: existing.stat });
              const edited = editOrThrow(whole.text, { oldString, newString, replaceAll: args.replace_all === true }, whole.format.eol, display);
              written = encodeText(edited.text, whole.format, display);
              value = editValue(located.relativePath, edited);
              return written;
            },
          });
          const snapshot = hashSnapshot(written!);
          deps.reads.record(located.relativePath, snapshot);
          witnessWrite(exec, located.relativePath, snapshot.sha256, replaced.mode);
          return value!;
        });
      }),
  });
}

type Edited = Extract<ReturnType<typeof editText>, { ok: true }>;

function editOrThrow(text: string, edit: { oldString: string; newString: string; replaceAll: boolean }, eol: '\n' | '\r\n', display: string): Edited {
  const edited = editText(text, edit, eol);
  if (!edited.ok) throw new FsError(edited.code, `old_string ${edited.detail}`.replace(/^old_string does not occur/, `old_string does not occur in ${display}`));
  return edited;
}

function editValue(relativePath: string, edited: Edited): EditFileValue {
  const from = Math.max(1, edited.firstLine - SNIPPET_CONTEXT);
  const to = Math.min(edited.lastLine + SNIPPET_CONTEXT, from + SNIPPET_MAX_LINES - 1);
  return { path: relativePath, replacements: edited.replacements, match: edited.kind, snippet: numberedLines(edited.text, from, to), ...(edited.style !== undefined && { style: edited.style }) };
}

/**
 * With a text source that has the file: the edit made on its text (checked against what was read)
 * and written there, or `undefined` when the source declines the write (the disk is edited then).
 * The disk is not written, so no write is witnessed: the checkpoint reads back what the disk holds.
 */
async function editThroughSource(deps: FsToolDeps, relativePath: string, stat: BigIntStats, display: string, edit: { oldString: string; newString: string; replaceAll: boolean }): Promise<EditFileValue | undefined> {
  const source = deps.textSource;
  if (source === undefined) return undefined;
  const at = sourcePath(deps.sourceRoot, relativePath);
  const text = await source.read(at);
  if (text === undefined) return undefined;
  if (Buffer.byteLength(text, 'utf8') > deps.limits.maxEditBytes) return undefined;
  deps.reads.assertCurrent(relativePath, display, { bytes: sourceBytes(text), stat });
  const edited = editOrThrow(text, edit, dominantEol(text), display);
  if (!(await source.write(at, edited.text))) return undefined;
  deps.reads.record(relativePath, hashSnapshot(sourceBytes(edited.text)));
  return editValue(relativePath, edited);
}

/** One line saying what was replaced (and how it matched), then the changed lines, numbered. */
export function renderEditFile(value: EditFileValue): string {
  const how = describeMatch(value.match);
  const said = [how, value.style].filter((part) => part !== undefined).join('; ');
  const head = `Replaced ${value.replacements} occurrence${value.replacements === 1 ? '' : 's'} in ${value.path}${said === '' ? '' : ` (${said})`}.`;
  return value.snippet === '' ? head : `${head}\n${value.snippet}`;
}
