import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './config-error.js';

/**
 * Adds `folder` (canonical) to `trustedFolders` in the user's settings file, keeping everything else
 * in it. The file is written whole to a temporary file and renamed, so a reader never sees half of
 * it. A file that is not a JSON object is refused (never overwritten). Resolves to the folder added.
 */
export async function trustFolder(settingsFile: string, folder: string): Promise<string> {
  let canonical: string;
  try {
    canonical = await realpath(resolve(folder));
  } catch (error) {
    throw new ConfigError(`Cannot trust ${resolve(folder)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}.`);
  }
  let settings: Record<string, unknown> = {};
  try {
    const text = await readFile(settingsFile, 'utf8');
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('it must hold a JSON object');
    settings = parsed as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new ConfigError(`The settings file ${settingsFile} is not valid, so the folder was not trusted: ${(error as Error).message}.`);
    }
  }
  const folders = Array.isArray(settings.trustedFolders) ? settings.trustedFolders.filter((entry): entry is string => typeof entry === 'string') : [];
  if (!folders.includes(canonical)) folders.push(canonical);
  settings.trustedFolders = folders;
  await mkdir(dirname(settingsFile), { recursive: true });
  const temporary = `${settingsFile}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, settingsFile);
  return canonical;
}
