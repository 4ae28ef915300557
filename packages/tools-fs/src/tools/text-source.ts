import { join } from 'node:path';

/**
 * Where the file tools may take a file's text from, and write it to, instead of the disk: an
 * editor's open buffers (unsaved changes included), say. Consulted only inside a tool body, after
 * the path is confined to the workspace, the call approved and (for a write) the write lock taken;
 * the read-before-write ledger applies to the text it gives as to the disk's.
 */
export interface TextSource {
  /** The text of the file at `path` (absolute) as the user sees it; `undefined` to read the disk. */
  read(path: string): Promise<string | undefined>;
  /**
   * Writes `text` as the content of the file at `path` (absolute): `true` once written there,
   * `false` to write the disk instead. May throw a `ToolCallError` to refuse the write; the call
   * then fails with it and nothing is written.
   */
  write(path: string, text: string): Promise<boolean>;
}

/**
 * The absolute path a text source is asked about: the root as given (the tools' `sourceRoot`), then
 * the canonical relative path. Takes the root, not the tools' deps, which import this file's type.
 */
export function sourcePath(sourceRoot: string, relativePath: string): string {
  return join(sourceRoot, relativePath);
}

/** The text a source gave, as the bytes the read ledger hashes. */
export function sourceBytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}
