import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { definePlugin, defineTool, ToolCallError } from '@weir/core';

const MAX_FILE_BYTES = 100_000;

/**
 * `read_file` and `list_dir`, confined to `root`, as a plugin. A stand-in for @weir/tools-fs's
 * `fsTools({ root })` (which defends against far more: symlink races, Windows forms, protected
 * paths); the example switches to it once it lands. Failures throw `ToolCallError` with a code and
 * a message written for the model.
 */
export function workspaceTools({ root }: { readonly root: string }) {
  const readFileTool = defineTool({
    name: 'read_file',
    description: 'Reads a UTF-8 text file of the workspace. `path` is relative to the workspace root.',
    tier: 'read-only',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'e.g. notes.txt' } }, required: ['path'], additionalProperties: false },
    execute: async ({ path }) => {
      const file = await inside(root, path);
      const stats = await lstat(file);
      if (stats.isDirectory()) throw new ToolCallError('IS_A_DIRECTORY', `${path} is a folder. Use list_dir to see what it holds.`);
      if (!stats.isFile()) throw new ToolCallError('NOT_A_REGULAR_FILE', `${path} is not a regular file.`);
      if (stats.size > MAX_FILE_BYTES) throw new ToolCallError('FILE_TOO_LARGE', `${path} has ${stats.size} bytes; read_file reads at most ${MAX_FILE_BYTES}.`);
      return readFile(file, 'utf8');
    },
  });

  const listDirTool = defineTool({
    name: 'list_dir',
    description: 'Lists a folder of the workspace, one name per line, folders ending in "/". `path` is relative to the workspace root ("." for the root).',
    tier: 'read-only',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'e.g. . or docs' } }, required: ['path'], additionalProperties: false },
    execute: async ({ path }) => {
      const folder = await inside(root, path);
      if (!(await lstat(folder)).isDirectory()) throw new ToolCallError('NOT_A_DIRECTORY', `${path} is a file. Use read_file to read it.`);
      const entries = await readdir(folder, { withFileTypes: true });
      const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
      return names.length === 0 ? '(empty folder)' : names.join('\n');
    },
  });

  return definePlugin({
    name: 'example-workspace-tools',
    setup(ctx) {
      ctx.tools.register(readFileTool);
      ctx.tools.register(listDirTool);
    },
  });
}

/** The real path of `path` under `root`, or a ToolCallError: outside the root, invalid, or missing. */
async function inside(root: string, path: string): Promise<string> {
  if (path.trim() === '' || path.includes('\0')) throw new ToolCallError('INVALID_PATH', 'Give a non-empty path relative to the workspace root.');
  const outside = new ToolCallError('PATH_OUTSIDE_WORKSPACE', `${path} is outside the workspace. Use a path relative to the workspace root, without "..".`);
  if (isAbsolute(path)) throw outside;
  const realRoot = await realpath(root);
  // Refuse lexically first, so nothing outside the root is ever touched, then again on the real path (symlinks).
  if (escapes(realRoot, resolve(realRoot, path))) throw outside;
  let real: string;
  try {
    real = await realpath(resolve(realRoot, path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolCallError('NOT_FOUND', `${path} does not exist. Use list_dir to see which files do.`);
    throw error;
  }
  if (escapes(realRoot, real)) throw outside;
  return real;
}

function escapes(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}
