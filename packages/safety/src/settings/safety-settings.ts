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
  /**
   * `compat` from the project's `weir.config.json` (the user's settings may say it too): with
   * `claude: true`, the project's `.claude/settings.json` and `.claude/settings.local.json` are read
   * as well, unchanged, for their `hooks` (the one switch for everything weir reads of that format).
   */
  readonly compat?: CompatSettings;
}

/** What weir reads of other agents' formats. */
export interface CompatSettings {
  /** Claude Code's project files (`.claude/settings.json`, `.claude/settings.local.json`, and issue 33's `CLAUDE.md`, skills...). */
  readonly claude?: boolean;
}

/** One layer, as read. */
export interface SettingsLayer {
  readonly name: 'managed' | 'user' | 'project' | 'claude-project' | 'claude-local';
  /** The file it was read from; `undefined` when the source was not given. */
  readonly file: string | undefined;
  readonly mode: SafetyMode | undefined;
  readonly rules: readonly PermissionRule[];
  /** The layer's `hooks` section as written (`@weir/hooks` checks it); `undefined` when it has none. */
  readonly hooks: unknown;
  /** `"network": { "allow": [...] }`: host names the shell sandbox may reach (`networkAllowOf` joins the layers). */
  readonly networkAllow: readonly string[];
}

/** A settings layer's hooks, in the shape `commandHooks({ layers })` of `@weir/hooks` takes. */
export interface HookSettingsLayer {
  readonly name: SettingsLayer['name'];
  readonly file: string;
  readonly hooks: unknown;
  /** The managed and user layers always; the project's (and its `.claude/` files) once the folder is trusted. */
  readonly trusted: boolean;
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
  /** The compat switch, from the sources or the user's settings (either turns it on). */
  readonly compat: { readonly claude: boolean };
  /** With `compat.claude`: the project's `.claude/settings.json` and `.claude/settings.local.json` (their `hooks` only). */
  readonly claude: readonly SettingsLayer[];
}

/** Claude Code's project settings files, read when `compat.claude` is on. */
export const CLAUDE_PROJECT_SETTINGS_FILES = [join('.claude', 'settings.json'), join('.claude', 'settings.local.json')] as const;

/** The project layer's file inside a workspace root. */
export const PROJECT_SETTINGS_FILE = join('.weir', 'settings.json');

const SAFETY_KEYS = new Set(['mode', 'rules', 'locked']);
const TOP_KEYS: Readonly<Record<'managed' | 'user' | 'project', ReadonlySet<string>>> = {
  managed: new Set(['safety', 'hooks', 'network']),
  user: new Set(['safety', 'trustedFolders', 'hooks', 'compat', 'network']),
  project: new Set(['safety', 'hooks', 'network']),
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
  const compat = Object.freeze({ claude: sources.compat?.claude === true || userRaw.compat.claude === true });
  const claude = compat.claude && projectRoot !== undefined ? await Promise.all(CLAUDE_PROJECT_SETTINGS_FILES.map((file, index) => readClaudeLayer(index === 0 ? 'claude-project' : 'claude-local', join(projectRoot, file)))) : [];
  return Object.freeze({
    managed: managedRaw.layer,
    user: userRaw.layer,
    project: projectRaw.layer,
    locked: managedRaw.locked,
    projectTrusted,
    projectRoot,
    compat,
    claude: Object.freeze(claude.filter((layer): layer is SettingsLayer => layer !== undefined)),
  });
}

/**
 * Every layer's `hooks`, in the order they run (managed, user, project, then the project's
 * `.claude/` files), each marked trusted or not: hand them to `commandHooks({ layers })`.
 */
export function hookLayers(settings: SafetySettings): HookSettingsLayer[] {
  const layers: HookSettingsLayer[] = [];
  const add = (layer: SettingsLayer, trusted: boolean) => {
    if (layer.file !== undefined && layer.hooks !== undefined) layers.push(Object.freeze({ name: layer.name, file: layer.file, hooks: layer.hooks, trusted }));
  };
  add(settings.managed, true);
  add(settings.user, true);
  add(settings.project, settings.projectTrusted);
  for (const layer of settings.claude) add(layer, settings.projectTrusted);
  return layers;
}

/**
 * The hosts the shell sandbox may reach, from every layer's `"network": { "allow": [...] }`: the
 * managed and user layers, and the project's once its folder is trusted (an untrusted repository
 * must not open the network). Under a locked managed file, the managed layer's alone. Hand them
 * to `shellTools({ network: { allow } })`; an empty list means the network stays off.
 */
export function networkAllowOf(settings: SafetySettings): string[] {
  const layers = settings.locked ? [settings.managed] : [settings.managed, settings.user, ...(settings.projectTrusted ? [settings.project] : [])];
  return [...new Set(layers.flatMap((layer) => layer.networkAllow))];
}

/**
 * Another agent's file, read as it is: only its `hooks` matter to weir, the rest (its permissions,
 * model, env) is that agent's business and is not checked. Missing: `undefined`. Not JSON:
 * `INVALID_SETTINGS`, so hooks a user counts on never silently vanish.
 */
async function readClaudeLayer(name: 'claude-project' | 'claude-local', file: string): Promise<SettingsLayer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw bad(file, `it cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw bad(file, `it is not JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad(file, 'it must hold a JSON object');
  return Object.freeze({ name, file, mode: undefined, rules: Object.freeze([]), hooks: (parsed as { hooks?: unknown }).hooks, networkAllow: Object.freeze([]) });
}

interface RawLayer {
  readonly layer: SettingsLayer;
  readonly locked: boolean;
  readonly trustedFolders: readonly string[];
  readonly compat: CompatSettings;
}

type WeirLayerName = 'managed' | 'user' | 'project';

async function readLayer(name: WeirLayerName, file: string | undefined): Promise<RawLayer> {
  const empty: RawLayer = { layer: Object.freeze({ name, file, mode: undefined, rules: Object.freeze([]), hooks: undefined, networkAllow: Object.freeze([]) }), locked: false, trustedFolders: [], compat: {} };
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
export function parseLayer(name: WeirLayerName, file: string, parsed: unknown): RawLayer {
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
  const compat = record.compat ?? {};
  if (typeof compat !== 'object' || compat === null || Array.isArray(compat)) throw bad(file, '"compat" must be an object such as { "claude": true }');
  for (const [key, value] of Object.entries(compat)) {
    if (key !== 'claude') throw bad(file, `unknown key ${JSON.stringify(key)} in "compat" (expected claude)`);
    if (typeof value !== 'boolean') throw bad(file, '"compat.claude" must be true or false');
  }
  if (record.hooks !== undefined && (typeof record.hooks !== 'object' || record.hooks === null || Array.isArray(record.hooks))) throw bad(file, '"hooks" must be an object of event names');
  const network = record.network ?? { allow: [] };
  if (typeof network !== 'object' || network === null || Array.isArray(network)) throw bad(file, '"network" must be an object such as { "allow": ["registry.npmjs.org"] }');
  for (const key of Object.keys(network)) if (key !== 'allow') throw bad(file, `unknown key ${JSON.stringify(key)} in "network" (expected allow)`);
  const networkAllow = (network as { allow?: unknown }).allow ?? [];
  if (!Array.isArray(networkAllow) || !networkAllow.every((host) => typeof host === 'string' && host !== '')) throw bad(file, '"network.allow" must be an array of host names such as "registry.npmjs.org" or "*.pypi.org"');
  return {
    layer: Object.freeze({ name, file, mode: safety.mode as SafetyMode | undefined, rules: Object.freeze([...rules]), hooks: record.hooks, networkAllow: Object.freeze([...networkAllow] as string[]) }),
    locked: safety.locked === true,
    trustedFolders,
    compat: compat as CompatSettings,
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
