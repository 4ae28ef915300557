import { posix } from 'node:path';
import type { ToolTier } from '@weir/core';
import { literalPath } from '../rules/literal-path.js';
import type { PathArgument } from '../rules/path-arguments.js';

/**
 * What one "allow for this session" covers: always one tool (by exact name), in one workspace (the
 * sandbox root it was granted under: a path means another file in another root), and either the
 * directories of the paths that were shown (for a write tool whose paths the sandbox resolved) or
 * exactly the arguments that were shown. It is shown to the person before they choose it.
 */
export type SessionScope =
  | {
      readonly kind: 'paths';
      readonly toolName: string;
      /** The sandbox root the grant was given under. */
      readonly root: string;
      /** Canonical directories, relative to the root: the grant covers paths strictly below them. */
      readonly directories: readonly string[];
      /** Files directly in the root: the grant covers exactly these. */
      readonly files: readonly string[];
      readonly description: string;
    }
  | {
      readonly kind: 'exact';
      readonly toolName: string;
      /** The sandbox root the grant was given under; `undefined` when no sandbox was loaded. */
      readonly root: string | undefined;
      readonly argumentsHash: string;
      readonly description: string;
    };

/**
 * The scope "allow for this session" would have for this call. Only write tools get a path scope:
 * a dangerous tool's other arguments (a command, say) matter as much as its paths, so its grant
 * is for exactly the arguments shown. A path without a canonical form also falls back to exact.
 */
export function sessionScopeFor(toolName: string, tier: ToolTier, paths: readonly PathArgument[], argumentsHash: string, root: string | undefined): SessionScope {
  const resolved = paths.length > 0 && paths.every((item) => item.literal !== undefined && item.canonical !== undefined);
  if (tier !== 'write' || !resolved || root === undefined) {
    return { kind: 'exact', toolName, root, argumentsHash, description: `${toolName} with exactly these arguments` };
  }
  const directories = new Set<string>();
  const files = new Set<string>();
  for (const item of paths) {
    const relative = item.canonical!.relativePath;
    const directory = posix.dirname(relative);
    if (directory === '.') files.add(relative);
    else directories.add(directory);
  }
  const shown = [...[...directories].map((directory) => `${directory}/**`), ...files];
  return {
    kind: 'paths',
    toolName,
    root,
    directories: [...directories],
    files: [...files],
    description: `${toolName} on ${shown.join(', ')}`,
  };
}

/**
 * The person's "allow for this session" answers, for one loaded safety plugin. A grant never
 * reaches another tool, and a path grant needs every path of a later call, both as sent and as
 * resolved, to fall inside it.
 */
export class SessionGrants {
  readonly #byTool = new Map<string, SessionScope[]>();

  add(scope: SessionScope): void {
    const list = this.#byTool.get(scope.toolName) ?? [];
    list.push(scope);
    this.#byTool.set(scope.toolName, list);
  }

  /** The grant that covers this call in the workspace `root`, if any. */
  find(toolName: string, paths: readonly PathArgument[], argumentsHash: string, root: string | undefined): SessionScope | undefined {
    return this.#byTool.get(toolName)?.find((scope) => scope.root === root && covers(scope, paths, argumentsHash));
  }

  clear(): void {
    this.#byTool.clear();
  }
}

function covers(scope: SessionScope, paths: readonly PathArgument[], argumentsHash: string): boolean {
  if (scope.kind === 'exact') return scope.argumentsHash === argumentsHash;
  const inside = (candidate: string) => scope.files.includes(candidate) || scope.directories.some((directory) => candidate.startsWith(`${directory}/`));
  return (
    paths.length > 0 &&
    paths.every((item) => item.literal !== undefined && item.canonical !== undefined && inside(literalPath(item.literal)) && inside(item.canonical.relativePath))
  );
}

