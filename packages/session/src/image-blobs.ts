import { createHash } from 'node:crypto';
import { checkParts } from '@weir/core';

/** An inline image's bytes, to be stored once under the SHA-256 of those bytes. */
export interface ImageBlob {
  /** Lowercase hex SHA-256 of `bytes`: the blob's file name. */
  readonly hex: string;
  readonly bytes: Uint8Array;
  /** The base64 the record carried, so the record kept in memory needs no re-encoding. */
  readonly data: string;
}

/** How a stored record names an image's bytes: `{ type: 'image', mediaType, blob: 'sha256:<hex>' }`. */
export const BLOB_PREFIX = 'sha256:';
export const BLOB_REF = /^sha256:[0-9a-f]{64}$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The part lists a record can carry: a tool result's `parts`, and a message's `message.parts`. */
export function partsOf(record: Json): unknown {
  if (record.type === 'tool_result') return record.parts;
  if (record.type === 'message' && isObject(record.message)) return record.message.parts;
  return undefined;
}

function withParts(record: Json, parts: unknown[]): Json {
  if (record.type === 'tool_result') return { ...record, parts };
  return { ...record, message: { ...(record.message as Json), parts } };
}

/**
 * The form a record is written in by a store that keeps images apart: each valid inline image
 * (`data` + `mediaType`) becomes a blob reference, and its bytes are returned to be written first.
 * A record without inline images is returned as it is, with no blobs. An invalid image part is left
 * inline, so the record check refuses it with its reason.
 */
export function externalizeImages(record: Json): { readonly stored: Json; readonly blobs: readonly ImageBlob[] } {
  const parts = partsOf(record);
  if (!Array.isArray(parts) || !parts.some((part) => isObject(part) && part.type === 'image' && typeof part.data === 'string')) {
    return { stored: record, blobs: [] };
  }
  const blobs: ImageBlob[] = [];
  const stored = parts.map((part: unknown) => {
    if (!isObject(part) || part.type !== 'image' || typeof part.data !== 'string' || checkParts([part]) !== undefined) return part;
    const { data, ...rest } = part;
    const bytes = Buffer.from(data, 'base64');
    const hex = createHash('sha256').update(bytes).digest('hex');
    if (!blobs.some((blob) => blob.hex === hex)) blobs.push({ hex, bytes, data });
    return { ...rest, blob: `${BLOB_PREFIX}${hex}` };
  });
  return { stored: withParts(record, stored), blobs };
}

/** What a blob reference resolves to: the image's base64, or why it cannot be had (a text note is shown instead). */
export type BlobLookup = (hex: string) => { readonly data: string } | { readonly missing: string };

/**
 * A stored record with its blob references turned back into inline images (`data`), the reverse of
 * `externalizeImages`. A reference `lookup` cannot resolve becomes a text part saying so. Returns the
 * record itself when it holds no references. Never throws.
 */
export function inlineImages(record: Json, lookup: BlobLookup): Json {
  const parts = partsOf(record);
  if (!Array.isArray(parts) || !parts.some(isBlobRef)) return record;
  return withParts(
    record,
    parts.map((part: unknown) => {
      if (!isBlobRef(part)) return part;
      const { blob, ...rest } = part;
      const found = lookup(blob.slice(BLOB_PREFIX.length));
      if ('data' in found) return { ...rest, data: found.data };
      return { type: 'text', text: `[image: ${String(part.mediaType)}, not available: ${found.missing}]` };
    }),
  );
}

/** The blob references in a stored record, as hex digests. */
export function blobRefsOf(record: Json): string[] {
  const parts = partsOf(record);
  if (!Array.isArray(parts)) return [];
  return parts.filter(isBlobRef).map((part) => part.blob.slice(BLOB_PREFIX.length));
}

function isBlobRef(part: unknown): part is Json & { readonly blob: string } {
  return isObject(part) && part.type === 'image' && typeof part.blob === 'string';
}

/**
 * Why `value` is not a list of parts as a store writes them, or `undefined` when it is: what
 * `checkParts` accepts, plus an image given as a blob reference (`mediaType` and `blob`, no `data`).
 */
export function checkStoredParts(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'content parts must be an array';
  for (let index = 0; index < value.length; index++) {
    const part: unknown = value[index];
    if (isBlobRef(part)) {
      if (!BLOB_REF.test(part.blob)) return `part ${index}: "blob" must be sha256:<64 hex digits>`;
      if (typeof part.mediaType !== 'string' || !part.mediaType.startsWith('image/')) return `part ${index}: a stored image needs "mediaType" (image/...)`;
      if (part.data !== undefined) return `part ${index}: a stored image has "blob" or "data", not both`;
      continue;
    }
    const reason = checkParts([part]);
    if (reason !== undefined) return reason.replace(/^part 0/, `part ${index}`);
  }
  return undefined;
}
