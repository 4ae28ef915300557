import * as path from 'node:path';
import { PROTECTED_PATHS } from '@weir/core';
import { relativeInside } from './containment.js';
import type { Located } from './locate-physical.js';
import type { Workspace } from './workspace.js';

/**
 * Protected by default: the paths of core's `PROTECTED_PATHS`, the one list tools-fs, tools-shell
 * and safety share (docs/reliability.md 1.1 rule 10, catalogue block G): writing there can run code
 * (git hooks, package scripts, CI workflows, editor tasks, direnv's `.envrc`) or change how the
 * harness behaves (`.weir/`). A name matches that component at any depth, a path from the root.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze(PROTECTED_PATHS.map((entry) => entry.path));

const MAX_GIT_FILE_BYTES = 4096;

/**
 * Paths inside the workspace whose writes need explicit approval. A rule without `/` (`.git`)
 * matches a component of that name at any depth; a rule with `/` (`config/prod/`) matches that
 * path from the root and everything below it; `*` matches within one name (`*.code-workspace`).
 * Matching folds case and Unicode form, so `.GIT` is `.git` (the same file on a case-insensitive
 * volume; asking once too often elsewhere is cheap).
 */
export class ProtectedPaths {
  readonly #names = new Set<string>();
  readonly #prefixes: string[] = [];
  /** Rules with `*`: a name pattern tested on each component, or a path pattern from the root. */
  readonly #patterns: { readonly rule: string; readonly anchored: boolean; readonly pattern: RegExp }[] = [];

  /** Throws `TypeError` on a rule that is not a non-empty relative path without `..`. */
  constructor(rules: readonly string[]) {
    for (const rule of rules) {
      if (typeof rule !== 'string' || rule.includes('\u0000')) throw new TypeError(`fsTools: protect entries must be strings, got ${JSON.stringify(rule)}.`);
      const normalized = path.posix.normalize(rule.replace(/^\.\/+/, '')).replace(/\/+$/, '');
      if (normalized === '' || normalized === '.' || path.posix.isAbsolute(normalized) || normalized.split('/').includes('..')) {
        throw new TypeError(`fsTools: protect entry ${JSON.stringify(rule)} must be a path relative to the workspace root, without "..".`);
      }
      const folded = fold(normalized);
      if (folded.includes('*')) this.#patterns.push({ rule: folded, anchored: folded.includes('/'), pattern: wildcard(folded, folded.includes('/')) });
      else if (folded.includes('/')) this.#prefixes.push(folded);
      else this.#names.add(folded);
    }
  }

  /** The rule `relativePath` (`/`-separated, relative to the root) falls under, or `undefined`. Pure. */
  ruleFor(relativePath: string): string | undefined {
    const folded = fold(relativePath);
    const components = folded.split('/');
    const name = components.find((component) => this.#names.has(component));
    if (name !== undefined) return name;
    const prefix = this.#prefixes.find((candidate) => folded === candidate || folded.startsWith(`${candidate}/`));
    if (prefix !== undefined) return prefix;
    return this.#patterns.find(({ anchored, pattern }) => (anchored ? pattern.test(folded) : components.some((component) => pattern.test(component))))?.rule;
  }
}

/**
 * Why a write to `input` (located as `located`, when it could be) needs approval, or `undefined`.
 * Both spellings must pass (docs/reliability.md 2.4): the path as written, normalised lexically, and the
 * canonical path after links. The real git directory counts too when `.git` at the root is a link
 * or a `gitdir:` file pointing inside the workspace (a worktree; catalogue row 59). Never throws.
 */
export async function protectionOf(workspace: Workspace, protectedPaths: ProtectedPaths, input: string, located: Located | undefined): Promise<string | undefined> {
  const literal = lexicalRelative(workspace.root, input);
  const candidates = [literal, located?.relativePath].filter((candidate): candidate is string => candidate !== undefined);
  for (const candidate of candidates) {
    const rule = protectedPaths.ruleFor(candidate);
    if (rule !== undefined) return rule;
  }
  if (located === undefined) return undefined;
  const gitDirectory = await realGitDirectory(workspace);
  if (gitDirectory !== undefined && gitDirectory !== '.' && (located.relativePath === gitDirectory || located.relativePath.startsWith(`${gitDirectory}/`))) {
    return `the git directory (${gitDirectory})`;
  }
  return undefined;
}

// The path as written, without following anything: absolute ones only when lexically inside.
function lexicalRelative(root: string, input: string): string | undefined {
  const normalized = path.posix.normalize(input);
  if (path.posix.isAbsolute(normalized)) return relativeInside(root, normalized);
  return normalized.split('/')[0] === '..' ? undefined : normalized;
}

/** The canonical relative path of the repository's git directory when `.git` leads elsewhere inside the root. */
async function realGitDirectory(workspace: Workspace): Promise<string | undefined> {
  const asDirectory = await workspace.locate('.git', 'list');
  if (asDirectory.ok) return asDirectory.relativePath === '.git' ? undefined : asDirectory.relativePath;
  const asFile = await workspace.locate('.git', 'read');
  if (!asFile.ok || asFile.stat === undefined || asFile.stat.size > BigInt(MAX_GIT_FILE_BYTES)) return undefined;
  let text: string;
  try {
    const file = await workspace.openFile(asFile, '".git"');
    try {
      const buffer = Buffer.alloc(MAX_GIT_FILE_BYTES);
      const { bytesRead } = await file.handle.read(buffer, 0, MAX_GIT_FILE_BYTES, 0);
      text = buffer.toString('utf8', 0, bytesRead);
    } finally {
      await file.handle.close();
    }
  } catch {
    // Unreadable or changed meanwhile: no gitdir to add; the name rule still protects `.git` itself.
    return undefined;
  }
  const target = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
  if (target === undefined) return undefined;
  const located = await workspace.locate(target, 'list');
  // A gitdir outside the root needs no protection here: every write there is refused as outside.
  return located.ok ? located.relativePath : undefined;
}

function fold(value: string): string {
  return value.normalize('NFC').toLowerCase();
}

// `*` as any characters within one name; a path pattern also covers everything below it.
function wildcard(rule: string, anchored: boolean): RegExp {
  const body = rule.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*');
  return new RegExp(anchored ? `^${body}(?:/|$)` : `^${body}$`);
}
