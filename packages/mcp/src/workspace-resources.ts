import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FileAccess } from '@weir/core';
import type { WorkspaceFileRefusal, WorkspaceFiles } from '@weir/tools-fs';
import type { McpResource, McpResourceRefusal, McpResourceSource } from './mcp-resource-source.js';

export interface WorkspaceResourcesOptions {
  /** The workspace: only files inside it are resources (canonicalised once; no link followed out). */
  readonly root: string;
  /** Largest file read (default 10 MiB): a larger one is refused, saying its size. */
  readonly maxReadBytes?: number;
  /** Resources per `resources/list` page (default 100). */
  readonly pageSize?: number;
  /** Most directory entries one listing walks (default 10 000): a larger tree is listed in part. */
  readonly maxWalkEntries?: number;
  /**
   * A further check of each file's physical path relative to the root (core's `FileAccess`, the seam
   * a policy gives tool bodies): a refused file is not listed, not completed, not read and not
   * subscribed to. The harness's own rules (`@weir/safety`) decide tool calls, not resources:
   * pass the same denials here (`.env`, keys).
   */
  readonly fileAccess?: FileAccess;
}

export const WORKSPACE_TEMPLATE_NAME = 'workspace-file';
const MAX_COMPLETIONS = 100;
// Big, rarely wanted as resources, and often huge: left out of the listing (still readable by URI).
const NOT_LISTED = new Set(['.git', 'node_modules']);

/**
 * The workspace's files as MCP resources (`file://` URIs), read through `@weir/tools-fs`'s
 * confinement (`openWorkspaceFiles`, the validator `read_file` uses): a URI outside the root, or a
 * file whose link leads out, is refused. The listing walks the tree in name order, paged, without
 * following links and without `.git` and `node_modules`; a template `file:///<root>/{+path}` names
 * any file, and completes `path` from the directory it is in. UTF-8 files are read as text, others
 * as base64 blobs. Throws when `root` is not a directory, or `@weir/tools-fs` is not installed.
 */
export async function workspaceResources(options: WorkspaceResourcesOptions): Promise<McpResourceSource> {
  if (typeof options?.root !== 'string' || options.root === '') throw new TypeError('workspaceResources: root must be the path of a directory.');
  const maxReadBytes = positive(options.maxReadBytes, 10 * 1024 * 1024, 'maxReadBytes');
  const pageSize = positive(options.pageSize, 100, 'pageSize');
  const maxWalkEntries = positive(options.maxWalkEntries, 10_000, 'maxWalkEntries');
  const { openWorkspaceFiles } = await import('@weir/tools-fs');
  const files = await openWorkspaceFiles(options.root);
  const rootUrl = pathToFileURL(files.root).href;
  const uriOf = (relativePath: string) => pathToFileURL(join(files.root, relativePath)).href;
  const template = `${rootUrl.replace(/\/$/, '')}/{+path}`;
  const allowed = (relativePath: string) => options.fileAccess === undefined || options.fileAccess.check(relativePath).allowed;
  const denied = (relativePath: string, uri: string): McpResourceRefusal => {
    const verdict = options.fileAccess?.check(relativePath);
    return { ok: false, reason: 'refused', message: `${uri}: ${verdict !== undefined && !verdict.allowed ? verdict.reason : 'refused'} (ACCESS_DENIED)` };
  };

  return {
    templates: [{ uriTemplate: template, name: WORKSPACE_TEMPLATE_NAME, title: 'A file of the workspace', description: `Any file under ${files.root}, by its path relative to it.` }],

    async list(cursor) {
      let after: string[] | undefined;
      if (cursor !== undefined) {
        const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
        if (!decoded.startsWith('after:')) return { ok: false, reason: 'refused', message: 'This cursor is not one resources/list gave.' };
        after = decoded.slice('after:'.length).split('/');
      }
      const resources: McpResource[] = [];
      let more = false;
      await walk(files, maxWalkEntries, (relativePath) => {
        if (after !== undefined && compareWalkOrder(relativePath.split('/'), after) <= 0) return true;
        if (!allowed(relativePath)) return true;
        if (resources.length === pageSize) {
          more = true;
          return false;
        }
        resources.push({ uri: uriOf(relativePath), name: relativePath, mimeType: mimeTypeOf(relativePath) });
        return true;
      });
      const last = resources.at(-1)?.name;
      return more && last !== undefined ? { resources, nextCursor: Buffer.from(`after:${last}`).toString('base64url') } : { resources };
    },

    async read(uri) {
      const path = pathOf(uri);
      if (typeof path !== 'string') return path;
      const read = await files.read(path, maxReadBytes);
      if (!read.ok) return refusal(read, uri);
      // Decided on the physical path (a link inside the root is judged by where it leads).
      if (!allowed(read.relativePath)) return denied(read.relativePath, uri);
      const mimeType = mimeTypeOf(read.relativePath);
      const text = utf8Text(read.bytes);
      if (text !== undefined) return { ok: true, contents: [{ uri, mimeType: mimeType ?? 'text/plain', text }] };
      return { ok: true, contents: [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: read.bytes.toString('base64') }] };
    },

    async version(uri) {
      const path = pathOf(uri);
      if (typeof path !== 'string') return path;
      const version = await files.version(path);
      if (version !== undefined) return allowed(version.relativePath) ? { ok: true, version: version.version } : denied(version.relativePath, uri);
      // Say why, in the words the read would use.
      const read = await files.read(path, 0);
      return read.ok || read.code === 'TOO_LARGE' ? { ok: false, reason: 'not-found', message: `${uri} is not a file.` } : refusal(read, uri);
    },

    async complete(uriTemplate, argument, value) {
      if (uriTemplate !== template || argument !== 'path') return [];
      const cut = value.lastIndexOf('/');
      const directory = cut === -1 ? '.' : value.slice(0, cut) || '.';
      const start = value.slice(cut + 1);
      const listing = await files.list(directory, 10_000);
      if (!listing.ok) return [];
      const prefix = cut === -1 ? '' : value.slice(0, cut + 1);
      return listing.entries
        .filter((entry) => entry.name.startsWith(start) && entry.kind !== 'symlink' && entry.kind !== 'other')
        .filter((entry) => allowed(listing.relativePath === '.' ? entry.name : `${listing.relativePath}/${entry.name}`))
        .slice(0, MAX_COMPLETIONS)
        .map((entry) => `${prefix}${entry.name}${entry.kind === 'directory' ? '/' : ''}`);
    },
  };

  // A `file:` URI as a path for the validator (which decides containment); anything else is refused here.
  function pathOf(uri: string): string | McpResourceRefusal {
    if (typeof uri !== 'string' || !uri.startsWith('file:')) return { ok: false, reason: 'not-found', message: `${JSON.stringify(uri)} is not a resource of this server: its resources are file: URIs under ${rootUrl}.` };
    try {
      return fileURLToPath(uri);
    } catch (error) {
      return { ok: false, reason: 'refused', message: `${JSON.stringify(uri)} is not a file URI this server reads (${(error as Error).message}).` };
    }
  }
}

function refusal(read: WorkspaceFileRefusal, uri: string): McpResourceRefusal {
  return { ok: false, reason: read.code === 'NOT_FOUND' ? 'not-found' : 'refused', message: `${uri}: ${read.message} (${read.code})` };
}

/**
 * Visits the workspace's regular files in name order, depth first, without following links and
 * without `.git` and `node_modules`, until `visit` returns false or `maxEntries` entries were seen.
 */
async function walk(files: WorkspaceFiles, maxEntries: number, visit: (relativePath: string) => boolean): Promise<void> {
  let seen = 0;
  const into = async (directory: string): Promise<boolean> => {
    const listing = await files.list(directory, maxEntries);
    if (!listing.ok) return true;
    for (const entry of listing.entries) {
      if ((seen += 1) > maxEntries) return false;
      const path = directory === '.' ? entry.name : `${directory}/${entry.name}`;
      if (entry.kind === 'file' && !visit(path)) return false;
      if (entry.kind === 'directory' && !NOT_LISTED.has(entry.name) && !(await into(path))) return false;
    }
    return true;
  };
  await into('.');
}

// The walk's order: component by component, by name (a directory's files come where its name sorts).
function compareWalkOrder(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}

function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

function mimeTypeOf(path: string): string | undefined {
  return MIME_TYPES[extname(path).toLowerCase()];
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`workspaceResources: ${name} must be a positive integer, got ${String(value)}.`);
  return value;
}
