/** What a directory entry is, from the directory itself (`lstat` semantics: links are not followed). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One name of a directory and what it is. */
export interface DirectoryEntry {
  readonly name: string;
  readonly kind: EntryKind;
}

/** The names read from one directory. */
export interface DirectoryListing {
  /** Sorted by name (UTF-16 code units, like `ls` in the C locale). */
  readonly entries: readonly DirectoryEntry[];
  /** False when the directory held more than the names read. */
  readonly complete: boolean;
}
