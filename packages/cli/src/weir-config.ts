import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { McpServerOptions } from '@weir/mcp';
import { ConfigError } from './config-error.js';
import { configModel, refuseEndpointKeys } from './config-model-key.js';
import type { CompactSettings } from './compaction-settings.js';

/** The name of a project's config file, in its workspace root. */
export const CONFIG_FILE = 'weir.config.json';

/** A plugin the config names: an npm package, resolved from the config file's folder. */
export interface PluginEntry {
  readonly package: string;
  readonly options: unknown;
}

/** A config file, read and checked. */
export interface WeirConfig {
  readonly file: string;
  /** Where plugin packages are resolved from and relative `cwd`s are taken from. */
  readonly dir: string;
  readonly plugins: readonly PluginEntry[];
  readonly servers: readonly McpServerOptions[];
  /** `"compat": { "claude": true }`: read Claude Code's project files too (hooks now, issue 33's files next). */
  readonly compat: { readonly claude: boolean };
  /** `"shell": false`: no `run_command` (the shell tool is loaded by default where its sandbox works). */
  readonly shell: boolean;
  /** `"model": "<provider>:<id>"`: the model, unless `--model` names one (the key and endpoint still come from the environment). */
  readonly model: string | undefined;
  /** `"shell": { "network": { "allow": [...] } }`: hosts `run_command` may reach through its proxy (the settings' `network.allow` joins them). */
  readonly shellNetworkAllow: readonly string[];
  /** `"compact": { "auto": 0.8, "contextWindow": 200000 }`: when the conversation is compacted on its own. */
  readonly compact: CompactSettings;
}

const TOP_KEYS = new Set(['$schema', 'plugins', 'mcpServers', 'compat', 'shell', 'model', 'compact']);
const PLUGIN_KEYS = new Set(['package', 'options']);
// An npm package name (scoped or not), as the registry accepts it.
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/**
 * Reads `weir.config.json`: `{ "plugins": ["weir-tool-hello", { "package": "x", "options": {...} }],
 * "mcpServers": { "<name>": { "command": ..., "args": [...] } | { "url": ... } } }`. A missing file is
 * `undefined` unless `required` (a `--config` flag). Anything else that is not a valid config (bad
 * JSON, an unknown key, a bad entry) throws a `ConfigError` naming the file and the key: a typo never
 * silently drops a plugin or a server.
 */
export async function readWeirConfig(file: string, required: boolean): Promise<WeirConfig | undefined> {
  const path = resolve(file);
  const parsed = await readConfigJson(path, required);
  return parsed === undefined ? undefined : parseWeirConfig(parsed.value, path);
}

/** A config file's JSON, unchecked: `undefined` for a missing file unless `required`; a `ConfigError` if it cannot be read or is not JSON. */
export async function readConfigJson(path: string, required: boolean): Promise<{ readonly value: unknown } | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return undefined;
    throw new ConfigError(`The config file ${path} cannot be read: ${code === 'ENOENT' ? 'it does not exist' : (error as Error).message}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`The config file ${path} is not JSON: ${(error as Error).message}.`);
  }
  return { value: parsed };
}

/** Checks a config's content (the file only names it in errors). */
export async function parseWeirConfig(parsed: unknown, file: string): Promise<WeirConfig> {
  const bad = (key: string, why: string) => new ConfigError(`The config file ${file} is not valid: ${key} ${why}.`);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(`The config file ${file} is not valid: it must hold a JSON object.`);
  const record = parsed as Record<string, unknown>;
  refuseEndpointKeys(record, '', file);
  for (const key of Object.keys(record)) {
    if (!TOP_KEYS.has(key)) throw bad(JSON.stringify(key), `is not a key weir knows (expected ${[...TOP_KEYS].filter((k) => k !== '$schema').join(', ')})`);
  }
  const model = configModel(record, file);
  const plugins: PluginEntry[] = [];
  if (record.plugins !== undefined) {
    if (!Array.isArray(record.plugins)) throw bad('"plugins"', 'must be an array of package names or { "package", "options" } objects');
    record.plugins.forEach((entry: unknown, index) => {
      const where = `"plugins[${index}]"`;
      if (typeof entry === 'string') {
        if (!PACKAGE_NAME.test(entry)) throw bad(where, `must be an npm package name, got ${JSON.stringify(entry)}`);
        plugins.push({ package: entry, options: undefined });
        return;
      }
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw bad(where, 'must be a package name or { "package", "options" }');
      const object = entry as Record<string, unknown>;
      const unknown = Object.keys(object).filter((key) => !PLUGIN_KEYS.has(key));
      if (unknown.length > 0) throw bad(`${where}.${unknown[0]}`, 'is not a key weir knows (expected package, options)');
      if (typeof object.package !== 'string' || !PACKAGE_NAME.test(object.package)) throw bad(`${where}.package`, `must be an npm package name, got ${JSON.stringify(object.package)}`);
      plugins.push({ package: object.package, options: object.options });
    });
  }
  let servers: McpServerOptions[] = [];
  if (record.mcpServers !== undefined) {
    // @weir/mcp's parser is small; the SDK itself loads only when a server starts.
    const { parseMcpConfig } = await import('@weir/mcp');
    try {
      servers = parseMcpConfig({ mcpServers: record.mcpServers }, `The config file ${file}`, dirname(file));
    } catch (error) {
      throw new ConfigError(`${(error as Error).message.replace(/^The config file (\S+): /, 'The config file $1 is not valid: ')}`);
    }
  }
  const compat = record.compat ?? {};
  if (typeof compat !== 'object' || compat === null || Array.isArray(compat)) throw bad('"compat"', 'must be an object such as { "claude": true }');
  for (const [key, value] of Object.entries(compat)) {
    if (key !== 'claude') throw bad(`"compat.${key}"`, 'is not a key weir knows (expected claude)');
    if (typeof value !== 'boolean') throw bad('"compat.claude"', 'must be true or false');
  }
  const shell = record.shell ?? true;
  const shellNetworkAllow = typeof shell === 'object' ? shellNetwork(shell, bad) : [];
  if (typeof shell !== 'boolean' && typeof shell !== 'object') throw bad('"shell"', 'must be true, false (no run_command) or { "network": { "allow": [host names] } }');
  const compact = compactSettings(record.compact, bad);
  return { file, dir: dirname(file), model, plugins, servers, compat: { claude: (compat as { claude?: boolean }).claude === true }, shell: shell !== false, shellNetworkAllow, compact };
}

/** `"compact": { "auto": <share> | false, "contextWindow": <tokens> }`, checked; both optional. */
function compactSettings(value: unknown, bad: (key: string, why: string) => ConfigError): CompactSettings {
  if (value === undefined) return { auto: undefined, contextWindow: undefined };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('"compact"', 'must be an object such as { "auto": 0.8, "contextWindow": 128000 }');
  for (const key of Object.keys(value)) if (key !== 'auto' && key !== 'contextWindow') throw bad(`"compact.${key}"`, 'is not a key weir knows (expected auto, contextWindow)');
  const { auto, contextWindow } = value as { auto?: unknown; contextWindow?: unknown };
  if (auto !== undefined && auto !== false && !(typeof auto === 'number' && auto > 0 && auto <= 1)) throw bad('"compact.auto"', `must be a share of the context window above 0 and at most 1 (0.8 is 80%), or false, got ${JSON.stringify(auto)}`);
  if (contextWindow !== undefined && !(Number.isInteger(contextWindow) && (contextWindow as number) > 0)) throw bad('"compact.contextWindow"', `must be a whole number of tokens above 0, got ${JSON.stringify(contextWindow)}`);
  return { auto: auto as number | false | undefined, contextWindow: contextWindow as number | undefined };
}

/** `"shell": { "network": { "allow": [...] } }`, checked; tools-shell checks each name when it loads. */
function shellNetwork(shell: object | null, bad: (key: string, why: string) => ConfigError): string[] {
  if (shell === null || Array.isArray(shell)) throw bad('"shell"', 'must be true, false or { "network": { "allow": [host names] } }');
  for (const key of Object.keys(shell)) if (key !== 'network') throw bad(`"shell.${key}"`, 'is not a key weir knows (expected network)');
  const network = (shell as { network?: unknown }).network ?? {};
  if (typeof network !== 'object' || network === null || Array.isArray(network)) throw bad('"shell.network"', 'must be an object such as { "allow": ["registry.npmjs.org"] }');
  for (const key of Object.keys(network)) if (key !== 'allow') throw bad(`"shell.network.${key}"`, 'is not a key weir knows (expected allow)');
  const allow = (network as { allow?: unknown }).allow ?? [];
  if (!Array.isArray(allow) || !allow.every((host) => typeof host === 'string' && host !== '')) throw bad('"shell.network.allow"', 'must be an array of host names such as "registry.npmjs.org" or "*.pypi.org"');
  return allow as string[];
}

/** The project's config file in a workspace. */
export function projectConfigFile(workspace: string): string {
  return join(workspace, CONFIG_FILE);
}
