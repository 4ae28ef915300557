import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The user's weir folder: `WEIR_HOME`, or `~/.weir`. It holds `settings.json`, the user layer of
 * `@weir/safety`'s settings, whose `trustedFolders` is also what the CLI trusts.
 */
export function weirHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.WEIR_HOME?.trim();
  return set ? resolve(set) : join(homedir(), '.weir');
}

/** The user's settings file: `<weir home>/settings.json`. */
export function userSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(weirHome(env), 'settings.json');
}
