import type { FileHandle } from 'node:fs/promises';
import { defineTool, type ContentPart } from '@weir/core';
import { IMAGE_SIGNATURE_BYTES, imageTypeOf, type ImageMediaType } from '../reading/image-type.js';
import { FsError, quote } from '../fs-error.js';
import { assertFileAccess } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { windowOfText, type LinesRead, type WindowLine } from '../reading/line-window.js';
import { hashSnapshot, identitySnapshot } from '../editing/read-ledger.js';
import { readTextLines } from '../reading/read-text-lines.js';
import { readWholeText } from '../reading/read-whole-text.js';
import { requiredArgument } from './required-argument.js';
import { runFsBody } from './run-fs-body.js';
import { sourceBytes, sourcePath } from './text-source.js';
import type { TextEncoding } from '../reading/text-format.js';

/** Lines a read without `limit` returns at most. */
export const DEFAULT_READ_LINES = 2000;

/** What read_file returns for an image file: the model sees the image. */
export interface ReadImageValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  readonly image: { readonly mediaType: ImageMediaType; readonly data: string; readonly bytes: number };
}

/** What read_file returns for a text file; the model reads its rendering (numbered lines and a note). */
export interface ReadFileValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  /** The lines shown, each without its line ending, long ones cut. */
  readonly lines: readonly WindowLine[];
  readonly startLine: number;
  /** The last line shown; `startLine - 1` when none was. */
  readonly endLine: number;
  /** Lines in the file, when known. */
  readonly totalLines: number | undefined;
  /** True when lines follow `endLine`. */
  readonly more: boolean;
  /** How the file's bytes were read: UTF-8, or Latin-1 when they are not UTF-8. */
  readonly encoding: TextEncoding;
}

/** The read_file tool: numbered lines of one text file inside the workspace, a bounded window at a time. */
export function readFileTool(deps: FsToolDeps) {
  const { workspace, limits } = deps;
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file inside the workspace (path relative to the workspace root). Lines come numbered like `cat -n`: the number, a tab, then the line. ' +
      'The numbers are not part of the file: leave them out of old_string when you edit. ' +
      `Without limit, at most ${DEFAULT_READ_LINES} lines are returned (and at most ${limits.maxReadBytes} bytes); lines longer than ${limits.maxReadLineChars} characters are cut. ` +
      'When more follows, the result ends with the offset to continue from. ' +
      `PNG, JPEG, GIF and WebP images up to ${limits.maxImageBytes} bytes are returned as images (whole; offset and limit do not apply). ` +
      'Other binary files are refused. Read a file before editing or overwriting it.',
    tier: 'read-only',
    files: { action: 'read', paths: ['path'] },
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root, e.g. "src/index.ts".' },
        offset: { type: 'integer', minimum: 1, description: 'First line to read, 1-based. Default 1.' },
        limit: { type: 'integer', minimum: 1, description: `Number of lines to read. Default ${DEFAULT_READ_LINES}.` },
        file_path: { type: 'string', description: 'Alias of path.' },
        start_line: { type: 'integer', minimum: 1, description: 'Alias of offset.' },
        end_line: { type: 'integer', minimum: 1, description: 'Last line to read (inclusive); becomes limit.' },
      },
      additionalProperties: false,
    },
    examples: [
      { arguments: { path: '../outside.txt' }, expect: { ok: false, code: 'PATH_OUTSIDE_WORKSPACE' } },
      { arguments: { path: '~/.ssh/id_ed25519' }, expect: { ok: false, code: 'INVALID_PATH' } },
    ],
    output: { render: (value: ReadFileValue | ReadImageValue) => ('image' in value ? renderImage(value) : renderReadFile(value)) },
    execute: (args, exec) =>
      runFsBody(exec, quote(String(args.path)), async (): Promise<ReadFileValue | ReadImageValue> => {
        const path = requiredArgument(args.path, 'path', 'read_file', '{"path": "src/index.ts"}');
        const display = quote(path);
        const located = await workspace.locateOrThrow(path, 'read');
        assertFileAccess(exec, located.relativePath, display);
        const file = await workspace.openFile(located, display);
        try {
          if (file.stat.nlink > 1n) {
            // Allowed (pnpm hard-links node_modules); recorded so an audit can find it (catalogue row 31).
            exec.logger.info({ path: located.relativePath, nlink: Number(file.stat.nlink) }, 'read_file: the file has several hard links');
          }
          const image = await readImage(file.handle, file.stat.size, limits.maxImageBytes, display);
          if (image !== undefined) {
            // A write over an image it has seen is allowed, and caught if the image changed since.
            deps.reads.record(located.relativePath, identitySnapshot(file.stat));
            return { path: located.relativePath, image };
          }
          const bounds = { offset: args.offset ?? 1, limit: args.limit ?? DEFAULT_READ_LINES, maxLineChars: limits.maxReadLineChars, maxBytes: limits.maxReadBytes };
          let lines: LinesRead;
          let encoding: TextEncoding;
          if (file.stat.size <= BigInt(limits.maxEditBytes)) {
            // Small enough to edit: read whole, so the model's knowledge of it is its exact content.
            const whole = await readWholeText(file, limits.maxEditBytes, display);
            // The source's text (an editor's buffer, unsaved changes included) when it has the file.
            const shown = await deps.textSource?.read(sourcePath(deps.sourceRoot, located.relativePath));
            lines = windowOfText(shown ?? whole.text, bounds);
            encoding = whole.format.encoding;
            deps.reads.record(located.relativePath, hashSnapshot(shown === undefined ? whole.bytes : sourceBytes(shown)));
          } else {
            const streamed = await readTextLines(file.handle, { ...bounds, maxScanBytes: limits.maxScanBytes, display, signal: exec.signal });
            lines = streamed;
            encoding = streamed.encoding;
            deps.reads.record(located.relativePath, identitySnapshot(file.stat));
          }
          return { path: located.relativePath, lines: lines.lines, startLine: lines.startLine, endLine: lines.endLine, totalLines: lines.totalLines, more: lines.more, encoding };
        } finally {
          await file.handle.close();
        }
      }),
  });
}

/**
 * The image in a file whose first bytes are an image signature (the name is never consulted), or
 * `undefined` for any other file. An image over `maxBytes` is `TOO_LARGE`: it is never cut.
 */
async function readImage(handle: FileHandle, size: bigint, maxBytes: number, display: string): Promise<ReadImageValue['image'] | undefined> {
  const head = new Uint8Array(IMAGE_SIGNATURE_BYTES);
  const { bytesRead } = await handle.read(head, 0, IMAGE_SIGNATURE_BYTES, 0);
  const mediaType = imageTypeOf(head.subarray(0, bytesRead));
  if (mediaType === undefined) return undefined;
  if (size > BigInt(maxBytes)) {
    throw new FsError('TOO_LARGE', `${display} is a ${mediaType} image of ${size} bytes, over the ${maxBytes}-byte limit for images. Images are never cut; use a smaller one.`);
  }
  const bytes = Buffer.alloc(Number(size));
  let filled = 0;
  while (filled < bytes.length) {
    const { bytesRead: read } = await handle.read(bytes, filled, bytes.length - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return { mediaType, data: bytes.subarray(0, filled).toString('base64'), bytes: filled };
}

/** An image: one line naming it, then the image itself. */
export function renderImage(value: ReadImageValue): readonly ContentPart[] {
  const { path, image } = value;
  return [
    { type: 'text', text: `${path}: ${image.mediaType} image, ${image.bytes} bytes` },
    { type: 'image', data: image.data, mediaType: image.mediaType },
  ];
}

/** Numbered lines (`cat -n`), then notes: where to continue, which lines were cut, the encoding. */
export function renderReadFile(value: ReadFileValue): string {
  const { path, lines, startLine, endLine, totalLines, more } = value;
  if (totalLines === 0) return `(${path} is empty)`;
  if (lines.length === 0) return `(${path} has ${totalLines ?? 'fewer'} lines; there is nothing at line ${startLine})`;
  const out = lines.map((line) => `${String(line.number).padStart(6)}\t${line.text}${line.cutFrom === undefined ? '' : ` [... cut: the line has ${line.cutFrom} characters]`}`);
  const of = totalLines === undefined ? '' : ` of ${totalLines}`;
  if (more) out.push(`[lines ${startLine}-${endLine}${of} of ${path}. Continue with offset=${endLine + 1}.]`);
  else if (startLine > 1) out.push(`[lines ${startLine}-${endLine}${of} of ${path}; the end of the file.]`);
  const cut = lines.filter((line) => line.cutFrom !== undefined).map((line) => line.number);
  if (cut.length > 0) out.push(`[Line${cut.length === 1 ? '' : 's'} ${cut.slice(0, 20).join(', ')}${cut.length > 20 ? ', ...' : ''} ${cut.length === 1 ? 'was' : 'were'} cut; use search_files to find text in ${cut.length === 1 ? 'it' : 'them'}.]`);
  if (value.encoding === 'latin1') out.push(`[${path} is Latin-1 (ISO-8859-1) text, not UTF-8; write_file and edit_file keep that encoding.]`);
  return out.join('\n');
}
