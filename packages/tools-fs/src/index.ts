// The public surface of @weir/tools-fs, by name. Everything else is internal.
export { fsTools, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_READ_BYTES } from './tools/fs-tools.js';
export type { FsToolsOptions } from './tools/fs-tools.js';
export type { TextSource } from './tools/text-source.js';

export { DEFAULT_PROTECTED_PATHS } from './confinement/protected-paths.js';
export { openWorkspaceFiles } from './confinement/workspace-files.js';
export type { WorkspaceDirectory, WorkspaceFileBytes, WorkspaceFileRefusal, WorkspaceFiles } from './confinement/workspace-files.js';
export type { FsErrorCode } from './fs-error.js';

export type { ReadFileValue } from './tools/read-file-tool.js';
export type { ListDirValue, ListedEntry } from './tools/list-dir-tool.js';
export type { EntryKind } from './walking/directory-entry.js';
export type { FindFilesValue } from './tools/find-files-tool.js';
export type { SearchFilesValue, SearchMatch } from './tools/search-files-tool.js';
export type { WriteFileValue } from './tools/write-file-tool.js';
export type { EditFileValue } from './tools/edit-file-tool.js';

export { openCheckpoints, Checkpoints } from './checkpoints/open-checkpoints.js';
export type { CheckpointsOptions, CheckpointTurn, RewindOptions } from './checkpoints/open-checkpoints.js';
export type { RewindReport, RewindConflict, StepHook } from './checkpoints/run-journal.js';
export type { RewindScope } from './checkpoints/checkpoint-log.js';
export type { ShellCheckpointOptions } from './checkpoints/command-snapshotter.js';
export { CheckpointError } from './checkpoints/checkpoint-error.js';
export type { CheckpointErrorCode } from './checkpoints/checkpoint-error.js';
