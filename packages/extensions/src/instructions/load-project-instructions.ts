import { realpath } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { ExtensionsError } from '../extensions-error.js';
import type { LoadProblem } from '../load-problem.js';
import { expandImports, type ImportScope } from './expand-imports.js';
import { findRepositoryRoot } from './find-repository-root.js';
import { DEFAULT_MAX_INSTRUCTION_BYTES, instructionFileNames, type InstructionFile } from './instruction-file.js';
import { readInstructionText, type ReadInstruction } from './read-instruction-text.js';

/** Options of `loadProjectInstructions`; only `workspace` is required. */
export interface ProjectInstructionsOptions {
  /** The folder the agent works in: the nearest instructions. */
  readonly workspace: string;
  /** Where the walk up stops. Default: the nearest folder holding `.git`, else the workspace alone. */
  readonly root?: string;
  /** The person's own folder (`~/.weir`): its instruction files come first, furthest from the work. */
  readonly userDir?: string;
  /** File names read in each folder, in order. Default `['AGENTS.md']` (`instructionFileNames({ claude: true })` adds `CLAUDE.md`, `GEMINI.md`). */
  readonly fileNames?: readonly string[];
  /** Cap on the merged text, in bytes. Default 32 KiB. */
  readonly maxBytes?: number;
}

/** What `loadProjectInstructions` found. */
export interface ProjectInstructions {
  /** The merged instructions for the system prompt (empty when there are none), nearest last. */
  readonly text: string;
  /** Every file that joined or was cut, in prompt order, imports after the file that brought them. */
  readonly files: readonly InstructionFile[];
  /** One line per file the cap cut or left out, saying how much. */
  readonly cuts: readonly string[];
  readonly problems: readonly LoadProblem[];
  /** The real paths of the files read, for the nested loader (each is read once). */
  readonly seen: ReadonlySet<string>;
  /** The folders searched (workspace up to the root): a nested `AGENTS.md` lies below the workspace. */
  readonly root: string;
}

/**
 * Reads the instruction files that apply to `workspace`: the person's (`userDir`), then each
 * folder from the repository root down to the workspace, each folder's `fileNames` in order, `@`
 * imports expanded, every file once (by real path and by content: a `CLAUDE.md` that is a copy or
 * a symlink of `AGENTS.md` is not read twice). When the whole passes `maxBytes` the nearest files
 * keep their place and the furthest are cut first, each cut said in `cuts` and in the text. Never
 * throws for a file; throws `INVALID_OPTIONS` for bad options.
 */
export async function loadProjectInstructions(options: ProjectInstructionsOptions): Promise<ProjectInstructions> {
  if (typeof options?.workspace !== 'string' || options.workspace === '') throw new ExtensionsError('INVALID_OPTIONS', 'loadProjectInstructions: workspace must be a folder path.');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INSTRUCTION_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new ExtensionsError('INVALID_OPTIONS', `loadProjectInstructions: maxBytes must be a non-negative integer, got ${String(maxBytes)}.`);
  const workspace = resolve(options.workspace);
  const root = resolve(options.root ?? (await findRepositoryRoot(workspace)) ?? workspace);
  if (relative(root, workspace).startsWith('..')) throw new ExtensionsError('INVALID_OPTIONS', `loadProjectInstructions: root ${root} does not contain the workspace ${workspace}.`);
  const names = options.fileNames ?? instructionFileNames();

  const problems: LoadProblem[] = [];
  const found: { read: ReadInstruction; source: 'user' | 'project' }[] = [];
  const digests = new Set<string>();
  const seen = new Set<string>();
  const take = async (dir: string, source: 'user' | 'project') => {
    for (const name of names) {
      const read = await readInstructionText(join(dir, name), problems);
      if (read === undefined || seen.has(read.real) || digests.has(read.digest)) continue;
      seen.add(read.real);
      digests.add(read.digest);
      found.push({ read, source });
    }
  };
  if (options.userDir !== undefined) await take(resolve(options.userDir), 'user');
  for (const dir of foldersDown(root, workspace)) await take(dir, 'project');

  // Real paths: an import is checked by where it really lies (the folders may be reached through links).
  const within = await Promise.all([root, ...(options.userDir === undefined ? [] : [resolve(options.userDir)])].map((dir) => realpath(dir).catch(() => dir)));
  const sections: { file: InstructionFile; imports: InstructionFile[]; text: string }[] = [];
  for (const { read, source } of found) {
    const scope: ImportScope = { seen, within, files: [] };
    const text = (await expandImports(read.text.trimEnd(), read.path, scope)).trim();
    const bytes = Buffer.byteLength(read.text);
    sections.push({ file: { path: read.path, source, bytes, keptBytes: bytes }, imports: scope.files, text });
  }
  return { ...capSections(sections, maxBytes, root), problems, seen, root };
}

/** The folders from `root` down to `workspace`, both included. */
function foldersDown(root: string, workspace: string): string[] {
  const folders: string[] = [];
  for (let dir = workspace; ; dir = dirname(dir)) {
    folders.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  return folders;
}

/** Joins the sections under their headings within `maxBytes`, the nearest (last) first served. */
function capSections(sections: readonly { file: InstructionFile; imports: InstructionFile[]; text: string }[], maxBytes: number, root: string) {
  let left = maxBytes;
  const kept = new Array<string>(sections.length);
  const files = new Array<InstructionFile[]>(sections.length);
  const cuts: string[] = [];
  for (let index = sections.length - 1; index >= 0; index -= 1) {
    const { file, imports, text } = sections[index]!;
    const heading = `# Instructions from ${label(file.path, root)}${file.source === 'user' ? ' (your own)' : ''}\n\n`;
    const size = Buffer.byteLength(heading) + Buffer.byteLength(text);
    if (size <= left) {
      left -= size;
      kept[index] = heading + text;
      files[index] = [file, ...imports];
      continue;
    }
    const room = Math.max(0, left - Buffer.byteLength(heading) - 200);
    const part = room > 0 ? cutAtLine(text, room) : '';
    const note = `${label(file.path, root)}: ${part === '' ? 'left out' : `cut to ${Buffer.byteLength(part)} of ${file.bytes} bytes`} (the instructions are capped at ${maxBytes} bytes; nearer files come first)`;
    cuts.push(note);
    left = part === '' ? left : 0;
    kept[index] = part === '' ? '' : `${heading}${part}\n\n[weir cut ${label(file.path, root)} here: ${note}]`;
    files[index] = [{ ...file, keptBytes: Buffer.byteLength(part) }, ...imports.map((imported) => ({ ...imported, keptBytes: part === '' ? 0 : imported.keptBytes }))];
  }
  return { text: kept.filter((section) => section !== '').join('\n\n'), files: files.flat(), cuts: cuts.reverse() };
}

/** The longest start of `text` within `bytes`, ended at a line break when there is one. */
function cutAtLine(text: string, bytes: number): string {
  const start = Buffer.from(text).subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, '');
  const line = start.lastIndexOf('\n');
  return line > 0 ? start.slice(0, line) : start;
}

function label(path: string, root: string): string {
  const rel = relative(root, path);
  return rel.startsWith('..') ? path : rel;
}
