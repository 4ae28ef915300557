import { readFile, realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { compileRules, type PermissionRule } from '../rules/permission-rule.js';
import { SafetyError } from '../safety-error.js';
import { isSafetyMode, SAFETY_MODES, type SafetyMode } from './safety-mode.js';

/** Where the settings layers are read from. Every file is optional; a missing file is an empty layer. */
export interface SettingsSources {
  /** The user's settings file (for example `~/.weir/settings.json`): their rules, mode and trusted folders. */
  readonly user?: string;
  /** The workspace root: its `.weir/settings.json` is the project layer. */
  readonly project?: string;
  /** The administrator's managed file (for example `/etc/weir/managed-settings.json`). */
  readonly managed?: string;
}

/** One layer, as read. */
export interface SettingsLayer {
  readonly name: 'managed' | 'user' | 'project';
  /** The file it was read from; `undefined` when the source was not given. */
  readonly file: string | undefined;
  readonly mode: SafetyMode | undefined;
  readonly rules: readonly PermissionRule[];
}

/** The layered settings, read and checked: what `safety({ settings })` takes. */
export interface SafetySettings {
  readonly managed: SettingsLayer;
  readonly user: SettingsLayer;
  readonly project: SettingsLayer;
  /** The managed file says `"locked": true`: nothing below it can relax it. */
  readonly locked: boolean;
  /** The project folder is among the user's trusted folders, so its settings may relax the user's. */
  readonly projectTrusted: boolean;
  /** The project's canonical root, when a project was given. */
  readonly projectRoot: string | undefined;
}

/** The project layer's file inside a workspace root. */
export const PROJECT_SETTINGS_FILE = join('.weir', 'settings.json');

const SAFETY_KEYS = new Set(['mode', 'rules', 'locked']);
const TOP_KEYS: Readonly<Record<SettingsLayer['name'], ReadonlySet<string>>> = {
  managed: new Set(['safety']),
  user: new Set(['safety', 'trustedFolders']),
  project: new Set(['safety']),
};

/**
 * Reads the settings layers: managed, user and project (`<root>/.weir/settings.json`). A file
 * holds `{ "safety": { "mode"?, "rules"?, "locked"? (managed only) }, "trustedFolders"? (user only) }`.
 * A missing file is an empty layer; anything else that is not valid settings (bad JSON, an
 * unknown key, a bad mode or rule) rejects with `SafetyError` `INVALID_SETTINGS` naming the file,
 * so a typo never silently drops a deny rule.
 */
export async function loadSafetySettings(sources: SettingsSources = {}): Promise<SafetySettings> {
  const managedRaw = await readLayer('managed', sources.managed);
  const userRaw = await readLayer('user', sources.user);
  const projectRoot = sources.project === undefined ? undefined : await canonical(sources.project);
  const projectRaw = await readLayer('project', projectRoot === undefined ? undefined : join(projectRoot, PROJECT_SETTINGS_FILE));
  const trusted = userRaw.trustedFolders;
  const projectTrusted = projectRoot !== undefined && (await isTrusted(projectRoot, trusted));
  return Object.freeze({
    managed: managedRaw.layer,
    user: userRaw.layer,
    project: projectRaw.layer,
    locked: managedRaw.locked,
    projectTrusted,
    projectRoot,
  });
}

interface RawLayer {
  readonly layer: SettingsLayer;
  readonly locked: boolean;
  readonly trustedFolders: readonly string[];
}

async function readLayer(name: SettingsLayer['name'], file: string | undefined): Promise<RawLayer> {
  const empty: RawLayer = { layer: Object.freeze({ name, file, mode: undefined, rules: Object.freeze([]) }), locked: false, trustedFolders: [] };
  if (file === undefined) return empty;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw bad(file, `it cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw bad(file, `it is not JSON (${(error as Error).message})`);
  }
  return parseLayer(name, file, parsed);
}

/** Checks one layer's content. Exported for tests and for settings that do not live in files. */
export function parseLayer(name: SettingsLayer['name'], file: string, parsed: unknown): RawLayer {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad(file, 'it must hold a JSON object');
  const record = parsed as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!TOP_KEYS[name].has(key)) throw bad(file, `unknown key ${JSON.stringify(key)} in ${name} settings (expected ${[...TOP_KEYS[name]].join(', ')})`);
  }
  const section = record.safety ?? {};
  if (typeof section !== 'object' || section === null || Array.isArray(section)) throw bad(file, '"safety" must be an object');
  const safety = section as Record<string, unknown>;
  for (const key of Object.keys(safety)) {
    if (!SAFETY_KEYS.has(key) || (key === 'locked' && name !== 'managed')) {
      throw bad(file, `unknown key ${JSON.stringify(key)} in "safety" (expected mode, rules${name === 'managed' ? ', locked' : ''})`);
    }
  }
  if (safety.mode !== undefined && !isSafetyMode(safety.mode)) throw bad(file, `"safety.mode" must be one of ${SAFETY_MODES.join(', ')}, got ${JSON.stringify(safety.mode)}`);
  if (safety.locked !== undefined && typeof safety.locked !== 'boolean') throw bad(file, '"safety.locked" must be true or false');
  const rules = (safety.rules ?? []) as PermissionRule[];
  try {
    compileRules(rules, `${file}: safety`);
  } catch (error) {
    throw bad(file, (error as Error).message);
  }
  const trustedFolders = record.trustedFolders ?? [];
  if (!Array.isArray(trustedFolders) || !trustedFolders.every((folder) => typeof folder === 'string' && folder !== '')) {
    throw bad(file, '"trustedFolders" must be an array of folder paths');
  }
  return {
    layer: Object.freeze({ name, file, mode: safety.mode as SafetyMode | undefined, rules: Object.freeze([...rules]) }),
    locked: safety.locked === true,
    trustedFolders,
  };
}

/** A folder is trusted when it, or a folder above it, is in the list (compared canonically). */
async function isTrusted(root: string, folders: readonly string[]): Promise<boolean> {
  for (const folder of folders) {
    const trusted = await canonical(folder).catch(() => resolve(folder));
    if (root === trusted || root.startsWith(trusted.endsWith(sep) ? trusted : `${trusted}${sep}`)) return true;
  }
  return false;
}

async function canonical(path: string): Promise<string> {
  return realpath(resolve(path));
}

function bad(file: string, why: string): SafetyError {
  return new SafetyError('INVALID_SETTINGS', `The settings file ${file} is not valid: ${why}.`);
}
