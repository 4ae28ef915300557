import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ExtensionsError } from '../extensions-error.js';
import { parseFrontMatter } from '../front-matter/parse-front-matter.js';
import type { ExtensionRoot, LoadProblem } from '../load-problem.js';
import { parseToolList } from '../tool-access/tool-list.js';
import { SKILL_NAME, type Skill } from './skill.js';

/** What `loadSkills` found. */
export interface LoadedSkills {
  /** One per name: the first root that has it wins. */
  readonly skills: readonly Skill[];
  /** Skill folders skipped or read in part, one line each (a later root's skill of a name already taken is one). */
  readonly problems: readonly LoadProblem[];
}

/**
 * Reads the skills of each root, in order: every folder of a root that holds a `SKILL.md` is a
 * skill (a root that does not exist has none). Only the front matter is kept; the body stays on
 * disk until `skill` reads it. A name taken by an earlier root shadows a later skill of the same
 * name (the problem says which). A bad `SKILL.md` is a problem and the others still load. Throws
 * `INVALID_OPTIONS` when `roots` is not a list of `{ dir, source }`.
 */
export async function loadSkills(roots: readonly ExtensionRoot[]): Promise<LoadedSkills> {
  if (!Array.isArray(roots) || !roots.every((root) => typeof root?.dir === 'string' && typeof root.source === 'string')) {
    throw new ExtensionsError('INVALID_OPTIONS', 'loadSkills: roots must be a list of { dir, source }.');
  }
  const skills = new Map<string, Skill>();
  const problems: LoadProblem[] = [];
  for (const root of roots) {
    for (const dir of await skillFolders(resolve(root.dir))) {
      const skill = await readSkill(dir, root.source, problems);
      if (skill === undefined) continue;
      const taken = skills.get(skill.name);
      if (taken !== undefined) {
        problems.push({ file: skill.file, reason: `not loaded: the skill name "${skill.name}" is taken by ${taken.file} (${taken.source})` });
        continue;
      }
      skills.set(skill.name, skill);
    }
  }
  return { skills: [...skills.values()], problems };
}

/** The folders of `root` holding a SKILL.md, sorted by name. */
async function skillFolders(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const folders: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const dir = join(root, entry.name);
    try {
      if ((await readdir(dir)).includes('SKILL.md')) folders.push(dir);
    } catch {
      // A symbolic link to a file, or a folder weir may not list: not a skill.
    }
  }
  return folders;
}

/** One skill's front matter, checked; `undefined` (and a problem) when it cannot be used. */
export async function readSkill(dir: string, source: string, problems: LoadProblem[]): Promise<Skill | undefined> {
  const file = join(dir, 'SKILL.md');
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
  const { data } = parsed;
  if (parsed.lenient !== undefined) problems.push({ file, reason: parsed.lenient });
  const folder = basename(dir);
  let name = data.name;
  if (name === undefined) {
    if (!SKILL_NAME.test(folder)) return skip('its front matter has no name, and the folder name is not a valid skill name');
    problems.push({ file, reason: `its front matter has no name: the folder's, "${folder}", is used` });
    name = folder;
  }
  if (typeof name !== 'string' || !SKILL_NAME.test(name)) return skip(`name must be lowercase letters, digits and single hyphens (at most 64), got ${JSON.stringify(name)}`);
  if (name !== folder) problems.push({ file, reason: `the name "${name}" differs from its folder "${folder}" (the spec asks that they match); loaded as "${name}"` });
  const description = data.description;
  if (typeof description !== 'string' || description.trim() === '') return skip('its front matter needs a description (what the skill does and when to use it)');
  let allowedTools;
  try {
    allowedTools = parseToolList(data['allowed-tools'] ?? data.allowed_tools, 'allowed-tools');
  } catch (error) {
    return skip((error as Error).message);
  }
  return Object.freeze({
    name,
    description: description.trim().replace(/\s+/g, ' '),
    dir,
    file,
    source,
    ...(allowedTools === undefined ? {} : { allowedTools }),
    modelInvocable: data['disable-model-invocation'] !== true && data['disable-model-invocation'] !== 'true',
    frontMatter: data,
    bytes: Buffer.byteLength(text),
  });
}
