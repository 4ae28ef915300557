// The public surface of @weir/tools-fs, by name. Everything else is internal.
export { fsTools, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_READ_BYTES } from './fs-tools.js';
export type { FsToolsOptions } from './fs-tools.js';

export { DEFAULT_PROTECTED_PATHS } from './protected-paths.js';
export type { FsErrorCode } from './fs-error.js';

export type { ReadFileValue } from './read-file-tool.js';
export type { ListDirValue, ListedEntry } from './list-dir-tool.js';
export type { EntryKind } from './read-directory.js';
export type { FindFilesValue } from './find-files-tool.js';
export type { SearchFilesValue, SearchMatch } from './search-files-tool.js';
export type { WriteFileValue } from './write-file-tool.js';
export type { EditFileValue } from './edit-file-tool.js';
