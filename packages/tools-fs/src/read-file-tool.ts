import type { FileHandle } from 'node:fs/promises';
import { defineTool, type ContentPart } from '@weir/core';
import { IMAGE_SIGNATURE_BYTES, imageTypeOf, type ImageMediaType } from './image-type.js';
import { FsError, quote } from './fs-error.js';
import { assertFileAccess } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import { readTextLines } from './read-text-lines.js';
import { runFsBody } from './run-fs-body.js';

/** What read_file returns for an image file: the model sees the image. */
export interface ReadImageValue {
  /** Canonical path relative to the workspace root. */
  readonly path: string;
  readonly image: { readonly mediaType: ImageMediaType; readonly data: string; readonly bytes: number };
}

/** What read_file returns for a text file; the model reads its rendering. */
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
      `PNG, JPEG, GIF and WebP images up to ${limits.maxImageBytes} bytes are returned as images (whole; offset and limit do not apply). ` +
      `Other binary files are refused.`,
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
    output: { render: (value: ReadFileValue | ReadImageValue) => ('image' in value ? renderImage(value) : renderReadFile(value)) },
    execute: (args, exec) =>
      runFsBody(exec, quote(String(args.path)), async (): Promise<ReadFileValue | ReadImageValue> => {
        const display = quote(args.path);
        const located = await workspace.locateOrThrow(args.path, 'read');
        assertFileAccess(exec, located.relativePath, display);
        const file = await workspace.openFile(located, display);
        try {
          if (file.stat.nlink > 1n) {
            // Allowed (pnpm hard-links node_modules); recorded so an audit can find it (catalogue row 31).
            exec.logger.info({ path: located.relativePath, nlink: Number(file.stat.nlink) }, 'read_file: the file has several hard links');
          }
          const image = await readImage(file.handle, file.stat.size, limits.maxImageBytes, display);
          if (image !== undefined) return { path: located.relativePath, image };
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
