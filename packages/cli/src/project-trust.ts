import { access, readFile, realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { CONFIG_FILE } from './weir-config.js';

/**
 * The project files of `workspace` that wait for the user's trust: its `weir.config.json` and
 * `.weir/settings.json` and its plugin bundles (`.weir/plugins.json`), when present and the folder (or one above it) is not among the user's
 * `trustedFolders`. Empty when there is nothing to ask. Reads two small files and imports nothing,
 * so it can run before the first prompt; `@weir/safety` decides the same way when it loads.
 */
export async function untrustedProjectFiles(workspace: string, settingsFile: string): Promise<string[]> {
  const candidates = [join(workspace, CONFIG_FILE), join(workspace, '.weir', 'settings.json'), join(workspace, '.weir', 'plugins.json')];
  const present: string[] = [];
  for (const file of candidates) {
    try {
      await access(file);
      present.push(file);
    } catch {
      // absent: nothing to trust
    }
  }
  if (present.length === 0) return [];
  let folders: unknown = [];
  try {
    folders = (JSON.parse(await readFile(settingsFile, 'utf8')) as { trustedFolders?: unknown }).trustedFolders ?? [];
  } catch {
    folders = [];
  }
  if (!Array.isArray(folders)) return present;
  for (const folder of folders) {
    if (typeof folder !== 'string' || folder === '') continue;
    const trusted = await realpath(resolve(folder)).catch(() => resolve(folder));
    if (workspace === trusted || workspace.startsWith(trusted.endsWith(sep) ? trusted : `${trusted}${sep}`)) return [];
  }
  return present;
}
