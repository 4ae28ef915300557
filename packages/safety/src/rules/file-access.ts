/**
 * The seam between safety and a tool body that opens paths itself is core's `FileAccess`
 * (`exec.fileAccess`): before the body reads, lists or writes a physical path, it asks
 * `check(relativePath)`. safety sets it through its execute-stage wrapper, for every call, in every
 * mode. Why: the guard decides on the path as resolved before the call runs, and a person may be
 * asked for minutes; a link swapped meanwhile, or a directory that holds a denied file, would
 * otherwise lead the body somewhere the rules never saw.
 */
export type { FileAccess, FileAccessVerdict } from '@weir/core';
