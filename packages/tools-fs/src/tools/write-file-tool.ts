import { defineTool } from '@weir/core';
import { FsError, quote } from '../fs-error.js';
import { assertFileAccess } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { assertWriteApproved } from '../confinement/protected-path-guard.js';
import { hashSnapshot } from '../editing/read-ledger.js';
import { readWholeText } from '../reading/read-whole-text.js';
import { requiredArgument } from './required-argument.js';
import { runFsBody } from './run-fs-body.js';
import { sourceBytes, sourcePath } from './text-source.js';
import { describeFormat, dominantEol, encodeText, NEW_FILE_FORMAT, withEol, type TextFormat } from '../reading/text-format.js';
import { withWriteLock } from '../editing/with-write-lock.js';
import { witnessWrite } from '../checkpoints/write-witness.js';

/** What write_file returns. */
export interface WriteFileValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  readonly bytes: number;
  /** True when the file did not exist before. */
  readonly created: boolean;
  /** What of the replaced file's form was kept (Latin-1, byte-order mark, CRLF), when not plain UTF-8 with LF. */
  readonly kept?: string;
}

/** The write_file tool: create or atomically replace a text file inside the workspace. */
export function writeFileTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'write_file',
    description:
      'Create a file inside the workspace, or replace its whole content. Missing parent directories are created. ' +
      'Replacing an existing file needs a read of it first (a file not read, or changed since, is refused); its encoding (UTF-8 or Latin-1), byte-order mark and CRLF line endings are kept. ' +
      'The write is atomic: readers see the old or the new content, never a mix. To change part of a file, prefer edit_file.',
    tier: 'write',
    files: { action: 'write', paths: ['path'] },
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
        file_path: { type: 'string', description: 'Alias of path.' },
      },
      required: ['content'],
      additionalProperties: false,
    },
    examples: [{ arguments: { path: '../escape.txt', content: 'x' }, expect: { ok: false, code: 'PATH_OUTSIDE_WORKSPACE' } }],
    output: { render: (value: WriteFileValue) => `${value.created ? 'Created' : 'Replaced'} ${value.path} (${value.bytes} bytes${value.kept === undefined ? '' : `; kept ${value.kept}`}).` },
    execute: (args, exec) =>
      runFsBody(exec, quote(String(args.path)), async (): Promise<WriteFileValue> => {
        const path = requiredArgument(args.path, 'path', 'write_file', '{"path": "src/new.ts", "content": "..."}');
        const display = quote(path);
        return withWriteLock(deps, path, display, async (located) => {
          assertFileAccess(exec, located.relativePath, display);
          await assertWriteApproved(deps.protection, exec.callId, path, located);
          if (located.stat !== undefined && deps.textSource !== undefined) {
            // The source (an editor) has the file: the new text goes there, checked against what was read.
            // The disk is not written, so no write is witnessed: the checkpoint reads back what the disk holds.
            const at = sourcePath(deps.sourceRoot, located.relativePath);
            const text = await deps.textSource.read(at);
            if (text !== undefined) {
              deps.reads.assertCurrent(located.relativePath, display, { bytes: sourceBytes(text), stat: located.stat });
              const content = dominantEol(text) === '\r\n' && !args.content.includes('\r\n') ? withEol(args.content, '\r\n') : args.content;
              if (await deps.textSource.write(at, content)) {
                deps.reads.record(located.relativePath, hashSnapshot(sourceBytes(content)));
                return { path: located.relativePath, bytes: Buffer.byteLength(content, 'utf8'), created: false };
              }
            }
          }
          let format: TextFormat = NEW_FILE_FORMAT;
          let data: Buffer | undefined;
          const written = await workspace.replaceFile(located, display, {
            createParents: true,
            signal: exec.signal,
            produce: async (existing) => {
              if (existing !== undefined) {
                if (existing.stat.size <= BigInt(limits.maxEditBytes)) {
                  let whole;
                  try {
                    whole = await readWholeText(existing, limits.maxEditBytes, display);
                  } catch (error) {
                    if (!(error instanceof FsError && error.code === 'BINARY_FILE')) throw error;
                    // A binary file cannot have been read (read_file refuses it): say so plainly.
                    throw new FsError('NOT_READ', `${display} is a binary file, which read_file cannot read, so write_file does not replace it. Ask the user to remove it first if it should become text.`);
                  }
                  deps.reads.assertCurrent(located.relativePath, display, { bytes: whole.bytes, stat: existing.stat });
                  format = whole.format;
                } else {
                  deps.reads.assertCurrent(located.relativePath, display, { stat: existing.stat });
                }
              }
              let content = args.content;
              if (format.eol === '\r\n' && !content.includes('\r\n')) content = withEol(content, '\r\n');
              if (format.bom && content.startsWith('\ufeff')) content = content.slice(1);
              data = encodeText(content, format, display);
              return data;
            },
          });
          const snapshot = hashSnapshot(data!);
          deps.reads.record(located.relativePath, snapshot);
          witnessWrite(exec, located.relativePath, snapshot.sha256, written.mode);
          const kept = written.created ? undefined : describeFormat(format);
          return { path: located.relativePath, bytes: written.bytes, created: written.created, ...(kept === undefined ? {} : { kept }) };
        });
      }),
  });
}
