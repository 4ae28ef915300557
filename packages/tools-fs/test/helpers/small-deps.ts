import type { FsLimits, FsToolDeps } from '../../src/tools/fs-tool-deps.js';
import { PathLocks } from '../../src/editing/path-locks.js';
import { ApprovalLedger } from '../../src/confinement/protected-path-guard.js';
import { ProtectedPaths } from '../../src/confinement/protected-paths.js';
import { ReadLedger } from '../../src/editing/read-ledger.js';
import type { Workspace } from '../../src/confinement/workspace.js';

/** Limits small enough for a test to reach each one with a few files. */
export const SMALL_LIMITS: FsLimits = Object.freeze({
  maxReadBytes: 1000,
  maxReadLineChars: 100,
  maxEntries: 100,
  maxScanBytes: 1000,
  maxImageBytes: 1000,
  maxEditBytes: 1000,
  maxSearchFileBytes: 1000,
  maxDirectoryNames: 100,
  maxCrawlEntries: 1000,
  regexTimeoutMs: 100,
  maxLineChars: 100,
});

/** What the tools' inner functions need, on `workspace`: small limits, nothing protected, no ripgrep. */
export function smallDeps(workspace: Workspace): FsToolDeps {
  return { workspace, limits: SMALL_LIMITS, protection: { workspace, protectedPaths: new ProtectedPaths([]), ledger: new ApprovalLedger() }, locks: new PathLocks(), reads: new ReadLedger(), ripgrep: false, sourceRoot: workspace.root };
}
