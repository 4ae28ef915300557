import { open, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolCallError } from '@weir/core';

/** The most bytes of one skill file returned. */
export const MAX_SKILL_FILE_BYTES = 200_000;
const MAX_LISTED = 100;

/**
 * Reads `file` of the skill folder `dir`, read-only: the path is resolved in the folder and its
 * real path (symbolic links followed) must stay inside the folder's real path, so neither `..` nor
 * a link reaches anything else. Fails with a `ToolCallError` written for the model: `NOT_FOUND`,
 * `OUTSIDE_SKILL`, `NOT_A_FILE`, `BINARY_FILE`.
 */
export async function readSkillFile(dir: string, file: string): Promise<string> {
  if (isAbsolute(file)) throw new ToolCallError('OUTSIDE_SKILL', `${file} is an absolute path; give a path inside the skill's folder, such as one of the files its listing names.`);
  const base = await realpath(dir);
  let real: string;
  try {
    real = await realpath(resolve(base, file));
  } catch {
    throw new ToolCallError('NOT_FOUND', `The skill has no file ${file}.`);
  }
  const rel = relative(base, real);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) throw new ToolCallError('OUTSIDE_SKILL', `${file} lies outside the skill's folder: only the skill's own files can be read this way.`);
  const handle = await open(real, 'r');
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new ToolCallError('NOT_A_FILE', `${file} is a folder, not a file.`);
    const buffer = Buffer.alloc(Math.min(info.size, MAX_SKILL_FILE_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) throw new ToolCallError('BINARY_FILE', `${file} is not a text file.`);
    const text = bytes.toString('utf8');
    return info.size > MAX_SKILL_FILE_BYTES ? `${text}\n[the first ${MAX_SKILL_FILE_BYTES} of ${info.size} bytes]` : text;
  } finally {
    await handle.close();
  }
}

/** The files of a skill's folder (not SKILL.md, not dot-files), relative, at most 100, four levels deep. */
export async function listSkillFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string, depth: number) => {
    let entries;
    try {
      entries = await readdir(join(dir, folder), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_LISTED || entry.name.startsWith('.')) continue;
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < 4) await walk(path, depth + 1);
      } else if (path !== 'SKILL.md') out.push(path);
    }
  };
  await walk('', 1);
  return out;
}
