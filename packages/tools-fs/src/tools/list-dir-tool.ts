import { defineTool } from '@weir/core';
import { FsError, quote } from '../fs-error.js';
import { assertFileAccess, fileAccessRefusal } from './file-access-check.js';
import type { FsToolDeps } from './fs-tool-deps.js';
import type { OpenDirectory } from '../confinement/open-directory.js';
import { printableName } from './printable-name.js';
import type { EntryKind } from '../walking/directory-entry.js';
import { readDirectory } from '../walking/read-directory.js';
import { runFsBody } from './run-fs-body.js';

/** One listed entry. */
export interface ListedEntry {
  /** Path relative to the workspace root; directories end with `/`. */
  readonly path: string;
  readonly kind: EntryKind;
  /** For a link: where it leads inside the workspace (`/` after a directory), or why it is not followed. */
  readonly target?: string;
  /** For a directory that was not descended into although depth allowed it. */
  readonly note?: string;
}

/** What list_dir returns. */
export interface ListDirValue {
  /** The listed directory, canonical, relative to the root. */
  readonly path: string;
  readonly entries: readonly ListedEntry[];
  /** True when entries were left out (the entry cap, or a directory too large to read whole). */
  readonly truncated: boolean;
}

const MAX_DEPTH = 10;
// Big and rarely wanted: listed, not descended into, unless listed directly.
const NOT_EXPANDED = new Set(['.git', 'node_modules']);

/** The list_dir tool: a directory's entries, sorted, optionally recursive, capped. */
export function listDirTool({ workspace, limits }: FsToolDeps) {
  return defineTool({
    name: 'list_dir',
    description:
      'List a directory inside the workspace: one entry per line, sorted, paths relative to the workspace root, "/" after directories, ' +
      '"name -> target" for symbolic links (never followed). depth > 1 lists subdirectories too (.git and node_modules are not expanded). ' +
      `At most ${limits.maxEntries} entries.`,
    tier: 'read-only',
    files: { action: 'list', paths: [{ argument: 'path', kind: 'directory', default: '.' }] },
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Directory relative to the workspace root. Default "." (the root).' },
        depth: { type: 'integer', minimum: 1, maximum: MAX_DEPTH, description: 'Levels to list; 1 (default) lists only the directory itself.' },
      },
      additionalProperties: false,
    },
    examples: [
      { arguments: {}, expect: { ok: true } },
      { arguments: { path: '..' }, expect: { ok: false, code: 'PATH_OUTSIDE_WORKSPACE' } },
    ],
    output: { render: renderListDir },
    execute: (args, exec) => {
      const input = args.path ?? '.';
      const display = quote(String(input));
      return runFsBody(exec, display, async (): Promise<ListDirValue> => {
        const located = await workspace.locateOrThrow(input, 'list');
        assertFileAccess(exec, located.relativePath, display);
        const entries: ListedEntry[] = [];
        let truncated = false;

        const walk = async (directory: OpenDirectory, prefix: string, levels: number): Promise<void> => {
          const listing = await readDirectory(directory, limits.maxDirectoryNames, exec.signal);
          if (!listing.complete) truncated = true;
          for (const { name, kind } of listing.entries) {
            if (entries.length >= limits.maxEntries) {
              truncated = true;
              return;
            }
            const path = prefix === '.' ? name : `${prefix}/${name}`;
            // An entry a safety rule refuses is left out, and so is everything below it.
            if (fileAccessRefusal(exec, path) !== undefined) continue;
            if (kind === 'symlink') {
              entries.push({ path, kind, target: await linkTarget(path) });
            } else if (kind !== 'directory') {
              entries.push({ path, kind });
            } else if (levels <= 1) {
              entries.push({ path: `${path}/`, kind });
            } else if (NOT_EXPANDED.has(name)) {
              entries.push({ path: `${path}/`, kind, note: 'not expanded; list it directly' });
            } else {
              entries.push({ path: `${path}/`, kind });
              let child: OpenDirectory;
              try {
                child = await directory.openChild(name, quote(path));
              } catch (error) {
                if (!(error instanceof FsError)) throw error;
                entries[entries.length - 1] = { path: `${path}/`, kind, note: `not listed: ${error.code}` };
                continue;
              }
              try {
                await walk(child, path, levels - 1);
              } finally {
                await child.close();
              }
            }
          }
        };

        // A link is described by where the validator says it leads; an outside target is never named.
        const linkTarget = async (path: string): Promise<string> => {
          const resolved = await workspace.inspect(path);
          if (resolved.ok) return resolved.stat?.isDirectory() ? `${resolved.relativePath}/` : resolved.relativePath;
          if (resolved.code === 'PATH_OUTSIDE_WORKSPACE') return '(outside the workspace; not followed)';
          if (resolved.code === 'NOT_FOUND' || resolved.code === 'BROKEN_SYMLINK') return '(broken link)';
          if (resolved.code === 'SYMLINK_LOOP') return '(link loop)';
          return '(cannot be resolved)';
        };

        const directory = await workspace.openDirectory(located, display);
        try {
          await walk(directory, located.relativePath, args.depth ?? 1);
        } finally {
          await directory.close();
        }
        return { path: located.relativePath, entries, truncated };
      });
    },
  });
}

/** One entry per line, then a truncation marker when entries were left out. */
export function renderListDir(value: ListDirValue): string {
  const lines = value.entries.map((entry) => {
    const path = printableName(entry.path);
    if (entry.kind === 'symlink') return `${path} -> ${printableName(entry.target ?? '?')}`;
    if (entry.kind === 'other') return `${path} [not a regular file]`;
    return entry.note === undefined ? path : `${path} (${entry.note})`;
  });
  if (lines.length === 0) lines.push(`(${value.path === '.' ? 'the workspace root' : value.path} is empty)`);
  if (value.truncated) lines.push(`[... truncated: more entries exist than shown. List a subdirectory, or use a smaller depth.]`);
  return lines.join('\n');
}
