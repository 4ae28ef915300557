import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One root as MCP sends it: a `file://` URI and a name. */
export interface McpRoot {
  readonly uri: string;
  readonly name: string;
}

/**
 * The folders MCP servers are told they may work in (the protocol's roots), shared by the servers
 * given it: `set` replaces them, and every connected server that shares them is sent
 * `notifications/roots/list_changed` (it then asks `roots/list` again).
 */
export interface McpRoots {
  /** The roots, as servers are told them. */
  list(): readonly McpRoot[];
  /** Replaces the folders (absolute, or relative to the process's working directory). Throws `TypeError` for a non-string. */
  set(folders: readonly string[]): void;
  /** Calls `listener` after each `set`; returns its undo. */
  onChange(listener: () => void): () => void;
}

function toRoots(folders: readonly string[], where: string): readonly McpRoot[] {
  if (!Array.isArray(folders) || !folders.every((folder) => typeof folder === 'string' && folder !== '')) {
    throw new TypeError(`${where}: roots must be an array of folder paths.`);
  }
  return Object.freeze(
    folders.map((folder) => {
      const path = resolve(folder);
      return Object.freeze({ uri: pathToFileURL(path).href, name: path.split(/[\\/]/).filter(Boolean).at(-1) ?? path });
    }),
  );
}

/** Roots to share between servers: `mcpServer({ roots: mcpRoots([workspace]) })`. Throws `TypeError` for bad folders. */
export function mcpRoots(folders: readonly string[]): McpRoots {
  let roots = toRoots(folders, 'mcpRoots');
  const listeners = new Set<() => void>();
  return Object.freeze({
    list: () => roots,
    set: (next: readonly string[]) => {
      roots = toRoots(next, 'McpRoots.set');
      for (const listener of [...listeners]) listener();
    },
    onChange: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  });
}

/** `true` for what `mcpRoots` made (a plain array is also accepted by `mcpServer`). */
export function isMcpRoots(value: unknown): value is McpRoots {
  const candidate = value as Partial<McpRoots> | null;
  return typeof candidate?.list === 'function' && typeof candidate.set === 'function' && typeof candidate.onChange === 'function';
}
