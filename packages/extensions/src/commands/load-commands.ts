import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { ExtensionsError } from '../extensions-error.js';
import { parseFrontMatter } from '../front-matter/parse-front-matter.js';
import type { ExtensionRoot, LoadProblem } from '../load-problem.js';
import { parseToolList } from '../tool-access/tool-list.js';
import type { Command } from './command.js';

/** What `loadCommands` found. */
export interface LoadedCommands {
  /** One per name, the first root's first. */
  readonly commands: readonly Command[];
  readonly problems: readonly LoadProblem[];
}

const NAME = /^[A-Za-z0-9][\w.-]*(?::[A-Za-z0-9][\w.-]*)*$/;

/**
 * Reads the markdown files of each root (sub-folders too, four deep) as slash commands: the file
 * name is the command (`review.md` is `/review`; `frontend/component.md` is `/frontend:component`),
 * the front matter gives `description`, `argument-hint`, `allowed-tools`, `model`, the body is the
 * prompt. `reserved` names (the harness's own commands, `help`) are not taken, and a name an
 * earlier root took is not either: each is a problem. Throws `INVALID_OPTIONS` for bad roots.
 */
export async function loadCommands(roots: readonly ExtensionRoot[], reserved: readonly string[] = []): Promise<LoadedCommands> {
  if (!Array.isArray(roots) || !roots.every((root) => typeof root?.dir === 'string' && typeof root.source === 'string')) {
    throw new ExtensionsError('INVALID_OPTIONS', 'loadCommands: roots must be a list of { dir, source }.');
  }
  const commands = new Map<string, Command>();
  const problems: LoadProblem[] = [];
  for (const root of roots) {
    const dir = resolve(root.dir);
    for (const file of await markdownFiles(dir, 0)) {
      const name = relative(dir, file).replace(/\.md$/i, '').split(/[\\/]/).join(':');
      const skip = (reason: string) => problems.push({ file, reason: `not loaded: ${reason}` });
      if (!NAME.test(name)) {
        skip(`"${name}" is not a command name (letters, digits, _, - and .)`);
        continue;
      }
      if (reserved.includes(name)) {
        skip(`/${name} is a command of weir's own`);
        continue;
      }
      const taken = commands.get(name);
      if (taken !== undefined) {
        skip(`/${name} is taken by ${taken.file} (${taken.source})`);
        continue;
      }
      const command = await readCommand(file, name, root.source, problems);
      if (command !== undefined) commands.set(name, command);
    }
  }
  return { commands: [...commands.values()], problems };
}

async function markdownFiles(dir: string, depth: number): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth < 4 && !entry.name.startsWith('.')) files.push(...(await markdownFiles(path, depth + 1)));
    else if (entry.isFile() && /\.md$/i.test(entry.name)) files.push(path);
  }
  return files;
}

async function readCommand(file: string, name: string, source: string, problems: LoadProblem[]): Promise<Command | undefined> {
  const skip = (reason: string) => {
    problems.push({ file, reason: `not loaded: ${reason}` });
    return undefined;
  };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return skip(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let parsed;
  try {
    parsed = await parseFrontMatter(text);
  } catch (error) {
    return skip((error as Error).message);
  }
  if (parsed.lenient !== undefined) problems.push({ file, reason: parsed.lenient });
  const { data, body } = parsed;
  const text_ = (key: string) => (typeof data[key] === 'string' && (data[key] as string).trim() !== '' ? (data[key] as string).trim() : undefined);
  let allowedTools;
  try {
    allowedTools = parseToolList(data['allowed-tools'] ?? data.allowed_tools, 'allowed-tools');
  } catch (error) {
    return skip((error as Error).message);
  }
  const firstLine = body.split('\n').find((line) => line.trim() !== '')?.replace(/^#+\s*/, '').trim() ?? '';
  const description = text_('description') ?? (firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine);
  const argumentHint = text_('argument-hint');
  const model = text_('model');
  return Object.freeze({
    name,
    description,
    ...(argumentHint === undefined ? {} : { argumentHint }),
    ...(allowedTools === undefined ? {} : { allowedTools }),
    ...(model === undefined ? {} : { model }),
    body,
    file,
    source,
    bytes: Buffer.byteLength(text),
    frontMatter: data,
  });
}
