import { definePlugin, type Plugin } from '@weir/core';
import { tapArgumentAliases } from './argument-aliases.js';
import { editFileTool } from './edit-file-tool.js';
import { findFilesTool } from './find-files-tool.js';
import type { FsLimits, FsToolDeps } from './fs-tool-deps.js';
import { listDirTool } from './list-dir-tool.js';
import type { OpenStrategy } from '../confinement/held-directory.js';
import { PathLocks } from '../editing/path-locks.js';
import { ReadLedger } from '../editing/read-ledger.js';
import { ApprovalLedger, protectedPathGuard } from '../confinement/protected-path-guard.js';
import { DEFAULT_PROTECTED_PATHS, ProtectedPaths } from '../confinement/protected-paths.js';
import { readFileTool } from './read-file-tool.js';
import { searchFilesTool } from './search-files-tool.js';
import { Workspace } from '../confinement/workspace.js';
import { writeFileTool } from './write-file-tool.js';
import { resolve } from 'node:path';
import type { TextSource } from './text-source.js';

/** Options of `fsTools`; only `root` is required. */
export interface FsToolsOptions {
  /** The workspace root. Every tool is confined to it; it is canonicalised (`realpath`) once, at setup. */
  readonly root: string;
  /** Register the write tools, `write_file` and `edit_file`. Default `false`: read-only tools only. */
  readonly write?: boolean;
  /** read_file: most bytes of text one call returns (line numbers included), under the core's content cap. Default 80 000. */
  readonly maxReadBytes?: number;
  /** read_file: largest image file returned as an image (PNG, JPEG, GIF, WebP). Default 5 MiB. */
  readonly maxImageBytes?: number;
  /** list_dir, find_files, search_files: most entries or matching lines in one result. Default 1000. */
  readonly maxEntries?: number;
  /**
   * More protected paths, added to `DEFAULT_PROTECTED_PATHS` (core's `PROTECTED_PATHS`): writing there needs
   * explicit approval. A name (`secrets`) matches that component at any depth; a path (`config/prod`) matches
   * from the root down; `*` matches within one name.
   */
  readonly protect?: readonly string[];
  /**
   * search_files: use ripgrep (`rg` on PATH, when it runs) to list the files that may match, then
   * open and match each of them through the workspace. Default `true`; `false` always walks in JavaScript.
   */
  readonly ripgrep?: boolean;
  /**
   * read_file, write_file and edit_file take a file's text from this source, and write it there,
   * when it has the file (an editor's open buffers, unsaved changes included); the disk otherwise.
   * Asked with absolute paths under `root` as given, after confinement, approval and the
   * read-before-write check, which stay this plugin's. Images and files over the edit limit are
   * always read from the disk. Default: none, the disk only.
   */
  readonly textSource?: TextSource;
}

/** Default `maxReadBytes`. */
export const DEFAULT_MAX_READ_BYTES = 80_000;
/** Default `maxImageBytes`: 5 MiB, what the strictest providers take. */
export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Default `maxEntries`. */
export const DEFAULT_MAX_ENTRIES = 1000;

/** What tests may force; not part of the public options. */
export interface FsToolsInternals {
  readonly strategy?: OpenStrategy;
  readonly ripgrep?: boolean;
}

/**
 * The file tools as a plugin named `tools-fs`, confined to `root`: read_file, list_dir,
 * find_files, search_files, and with `write: true` write_file and edit_file. Setup provides the
 * path validator as the harness's sandbox (`ctx.sandbox`), and with `write` adds the guard that
 * asks approval for protected paths. Throws `TypeError` on invalid options; setup (and so
 * `harness.use`) fails when the root is not an existing directory or another plugin already
 * provides a sandbox.
 */
export function fsTools(options: FsToolsOptions): Plugin {
  return createFsTools(options, {});
}

/** `fsTools` with internals forced (tests run the catalogue under both open strategies). */
export function createFsTools(options: FsToolsOptions, internals: FsToolsInternals): Plugin {
  if (typeof options !== 'object' || options === null) throw new TypeError('fsTools: expected options { root, write?, maxReadBytes?, maxImageBytes?, maxEntries?, protect? }.');
  const write = options.write ?? false;
  if (typeof write !== 'boolean') throw new TypeError(`fsTools: write must be a boolean, got ${typeof write}.`);
  const limits = limitsFrom(options);
  const protectedPaths = new ProtectedPaths([...DEFAULT_PROTECTED_PATHS, ...(options.protect ?? [])]);

  return definePlugin({
    name: 'tools-fs',
    async setup(ctx) {
      const workspace = await Workspace.create(options.root, { strategy: internals.strategy });
      ctx.sandbox.provide(workspace);
      const ledger = new ApprovalLedger();
      const deps: FsToolDeps = { workspace, limits, protection: { workspace, protectedPaths, ledger }, locks: new PathLocks(), reads: new ReadLedger(), ripgrep: internals.ripgrep ?? options.ripgrep ?? true, textSource: options.textSource, sourceRoot: resolve(options.root) };
      // Before every guard: policies see canonical argument names only.
      tapArgumentAliases(ctx.hooks);
      ctx.tools.register(readFileTool(deps));
      ctx.tools.register(listDirTool(deps));
      ctx.tools.register(findFilesTool(deps));
      ctx.tools.register(searchFilesTool(deps));
      if (write) {
        ctx.guards.add('tools-fs/protected-paths', protectedPathGuard(deps.protection));
        // Every call's result is announced, approved or not: its ledger entry is no longer needed.
        ctx.hooks.result.tap((result) => ledger.forget(result.callId));
        ctx.tools.register(writeFileTool(deps));
        ctx.tools.register(editFileTool(deps));
      }
      ctx.logger.debug({ root: workspace.root, strategy: workspace.strategy, write }, 'tools-fs: workspace ready');
    },
  });
}

function limitsFrom(options: FsToolsOptions): FsLimits {
  const maxReadBytes = positiveInteger(options.maxReadBytes, 'maxReadBytes') ?? DEFAULT_MAX_READ_BYTES;
  const maxEntries = positiveInteger(options.maxEntries, 'maxEntries') ?? DEFAULT_MAX_ENTRIES;
  return Object.freeze({
    maxReadBytes,
    maxEntries,
    maxImageBytes: positiveInteger(options.maxImageBytes, 'maxImageBytes') ?? DEFAULT_MAX_IMAGE_BYTES,
    maxReadLineChars: 2000,
    maxScanBytes: Math.max(256 * 1024 * 1024, maxReadBytes),
    maxEditBytes: Math.max(16 * 1024 * 1024, maxReadBytes),
    maxSearchFileBytes: Math.max(4 * 1024 * 1024, maxReadBytes),
    maxDirectoryNames: Math.max(100_000, maxEntries),
    maxCrawlEntries: Math.max(1_000_000, maxEntries),
    regexTimeoutMs: 2000,
    maxLineChars: 500,
  });
}

function positiveInteger(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new TypeError(`fsTools: ${name} must be a positive integer, got ${String(value)}.`);
  return value;
}
