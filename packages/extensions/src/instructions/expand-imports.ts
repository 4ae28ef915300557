import { readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { InstructionFile } from './instruction-file.js';

/** Claude Code's import depth: an import's imports count, five deep. */
const MAX_DEPTH = 5;
/** A line holding only `@path` tokens (`@AGENTS.md`, `@./skills/x/SKILL.md @README.md`). */
const IMPORT_LINE = /^\s*@[^\s@][^\s]*(?:\s+@[^\s@][^\s]*)*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** What expanding one file needs: the files read so far (real paths) and where imports may come from. */
export interface ImportScope {
  /** Real paths already in the prompt: each file is read once. */
  readonly seen: Set<string>;
  /** Folders an import may lie in (the repository root, the person's weir folder). */
  readonly within: readonly string[];
  readonly files: InstructionFile[];
}

/**
 * The text of `file` with each import line (`@path` alone on a line, outside code fences) replaced
 * by the imported file's own expanded text. A file already read becomes a one-line note instead
 * (a `CLAUDE.md` that is only `@AGENTS.md` adds nothing twice); an import outside `within`, missing
 * or too deep stays as a note saying why. Never throws for a bad import.
 */
export async function expandImports(text: string, file: string, scope: ImportScope, depth = 0): Promise<string> {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced || !IMPORT_LINE.test(line)) {
      out.push(line);
      continue;
    }
    for (const token of line.trim().split(/\s+/)) out.push(await importOne(token.slice(1), file, scope, depth));
  }
  return out.join('\n');
}

async function importOne(target: string, from: string, scope: ImportScope, depth: number): Promise<string> {
  const path = resolve(dirname(from), target);
  const note = (why: string) => `(weir did not import ${target}: ${why})`;
  if (target.startsWith('~')) return note('imports from the home folder are not read');
  if (depth >= MAX_DEPTH) return note(`imports go ${MAX_DEPTH} deep at most`);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return note('no such file');
  }
  if (scope.seen.has(real)) return `(${target}: already included above)`;
  if (!scope.within.some((root) => inside(root, real))) return note('it lies outside the project');
  let content: string;
  try {
    content = (await readFile(real, 'utf8')).replace(/\r\n?/g, '\n');
  } catch (error) {
    return note((error as NodeJS.ErrnoException).code ?? 'unreadable');
  }
  scope.seen.add(real);
  const bytes = Buffer.byteLength(content);
  scope.files.push({ path, source: 'import', bytes, keptBytes: bytes, importedBy: from });
  return expandImports(content.trimEnd(), path, scope, depth + 1);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
