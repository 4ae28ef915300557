import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { McpServerOptions } from '@weir/mcp';
import type { Bundle, BundleHooks } from './bundle.js';
import { BundleError } from './bundle-error.js';

/** The Claude Code manifest, relative to the plugin's folder. */
export const CLAUDE_MANIFEST = join('.claude-plugin', 'plugin.json');

const WEIR_KEYS = new Set(['name', 'tools', 'skills', 'commands', 'agents', 'hooks', 'mcpServers']);

/**
 * Reads the bundle in `dir`: its package.json `weir` field when it has one, its Claude Code plugin
 * manifest (`.claude-plugin/plugin.json`, read unchanged) otherwise. A Claude plugin's default
 * folders (`commands/`, `agents/`, `skills/`, `hooks/hooks.json`, `.mcp.json`) count when present,
 * and the manifest's own paths add to them, as Claude Code does. `${CLAUDE_PLUGIN_ROOT}` in an MCP
 * server's command, arguments, environment, URL or headers becomes the folder. Runs nothing. Throws
 * `BundleError` naming the file and the key when a folder is not a bundle, a path leaves the
 * folder, or a part is not the format.
 */
export async function readBundle(dir: string): Promise<Bundle> {
  const root = resolve(dir);
  if (!(await isDirectory(root))) throw new BundleError(`${root} is not a folder.`);
  const packageFile = join(root, 'package.json');
  const pkg = await readJson(packageFile, false);
  if (isRecord(pkg) && pkg.weir !== undefined) return readWeirField(root, packageFile, pkg);
  const manifestFile = join(root, CLAUDE_MANIFEST);
  const manifest = await readJson(manifestFile, false);
  if (manifest === undefined) throw new BundleError(`${root} is not a plugin bundle: it has neither a package.json "weir" field nor ${CLAUDE_MANIFEST}.`);
  return readClaudeManifest(root, manifestFile, manifest);
}

async function readWeirField(root: string, file: string, pkg: Record<string, unknown>): Promise<Bundle> {
  const bad = (key: string, why: string) => new BundleError(`${file}: "weir.${key}" ${why}.`);
  const field = pkg.weir;
  if (!isRecord(field)) throw new BundleError(`${file}: "weir" must be an object naming the parts ({ "tools", "skills", "commands", "agents", "hooks", "mcpServers" }).`);
  const unknown = Object.keys(field).find((key) => !WEIR_KEYS.has(key));
  if (unknown !== undefined) throw bad(unknown, `is not a part weir knows (expected ${[...WEIR_KEYS].join(', ')})`);
  const name = field.name ?? pkg.name;
  if (typeof name !== 'string' || name === '') throw new BundleError(`${file}: the bundle needs a name ("name", or "weir.name").`);
  const paths = (key: string) => pathList(root, field[key], (why) => bad(key, why));
  const hooks: BundleHooks[] = [];
  for (const hooksFile of paths('hooks')) hooks.push(await readHooksFile(hooksFile));
  return {
    name,
    version: typeof pkg.version === 'string' ? pkg.version : undefined,
    description: typeof pkg.description === 'string' ? pkg.description : undefined,
    root,
    format: 'weir',
    manifestFile: file,
    tools: paths('tools'),
    skills: paths('skills'),
    commands: paths('commands'),
    agents: paths('agents'),
    hooks,
    mcpServers: await mcpServersOf(root, field.mcpServers, file, (why) => bad('mcpServers', why)),
  };
}

async function readClaudeManifest(root: string, file: string, manifest: unknown): Promise<Bundle> {
  const bad = (key: string, why: string) => new BundleError(`${file}: "${key}" ${why}.`);
  if (!isRecord(manifest)) throw new BundleError(`${file}: the manifest must be a JSON object with a "name".`);
  if (typeof manifest.name !== 'string' || manifest.name.trim() === '') throw bad('name', 'must be the plugin\'s name');
  // Claude Code's defaults, when present, then the manifest's own paths (they add, never replace).
  const withDefault = async (key: string, fallback: string) => {
    const found = (await exists(join(root, fallback))) ? [join(root, fallback)] : [];
    for (const path of pathList(root, manifest[key], (why) => bad(key, why))) if (!found.includes(path)) found.push(path);
    return found;
  };
  const hooks: BundleHooks[] = [];
  const defaultHooks = join(root, 'hooks', 'hooks.json');
  if (await exists(defaultHooks)) hooks.push(await readHooksFile(defaultHooks));
  if (isRecord(manifest.hooks)) hooks.push({ file, hooks: manifest.hooks.hooks ?? manifest.hooks });
  else {
    for (const hooksFile of pathList(root, manifest.hooks, (why) => bad('hooks', why))) {
      if (hooksFile !== defaultHooks) hooks.push(await readHooksFile(hooksFile));
    }
  }
  const servers = [...(await mcpServersOf(root, (await exists(join(root, '.mcp.json'))) ? '.mcp.json' : undefined, file, (why) => bad('.mcp.json', why)))];
  if (manifest.mcpServers !== undefined && manifest.mcpServers !== './.mcp.json' && manifest.mcpServers !== '.mcp.json') {
    servers.push(...(await mcpServersOf(root, manifest.mcpServers, file, (why) => bad('mcpServers', why))));
  }
  return {
    name: manifest.name,
    version: typeof manifest.version === 'string' ? manifest.version : undefined,
    description: typeof manifest.description === 'string' ? manifest.description : undefined,
    root,
    format: 'claude',
    manifestFile: file,
    tools: [],
    skills: await withDefault('skills', 'skills'),
    commands: await withDefault('commands', 'commands'),
    agents: await withDefault('agents', 'agents'),
    hooks,
    mcpServers: servers,
  };
}

/** A `hooks/hooks.json`: `{ "description"?, "hooks": { <event>: [...] } }`. */
async function readHooksFile(file: string): Promise<BundleHooks> {
  const parsed = await readJson(file, true);
  if (!isRecord(parsed) || !isRecord(parsed.hooks)) throw new BundleError(`${file}: a hooks file must be { "hooks": { "<event>": [...] } }.`);
  return { file, hooks: parsed.hooks };
}

/** MCP servers from a path to a `.mcp.json` or an inline object, flat or under `mcpServers`. */
async function mcpServersOf(root: string, value: unknown, file: string, bad: (why: string) => BundleError): Promise<McpServerOptions[]> {
  if (value === undefined) return [];
  let config: unknown = value;
  let source = file;
  if (typeof value === 'string') {
    source = inside(root, value, bad);
    config = await readJson(source, true);
  } else if (!isRecord(value)) throw bad('must be a path to a .mcp.json or an object of servers');
  const servers = isRecord(config) && isRecord(config.mcpServers) ? config.mcpServers : config;
  const { parseMcpConfig } = await import('@weir/mcp');
  try {
    return parseMcpConfig({ mcpServers: expandPluginRoot(servers, root) }, source, root);
  } catch (error) {
    throw new BundleError((error as Error).message);
  }
}

/** `${CLAUDE_PLUGIN_ROOT}` in every string of `value`, replaced by `root`. */
function expandPluginRoot(value: unknown, root: string): unknown {
  if (typeof value === 'string') return value.replaceAll('${CLAUDE_PLUGIN_ROOT}', root);
  if (Array.isArray(value)) return value.map((item) => expandPluginRoot(item, root));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandPluginRoot(item, root)]));
  return value;
}

/** A path or a list of paths, each resolved inside `root`. */
function pathList(root: string, value: unknown, bad: (why: string) => BundleError): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item !== '')) throw bad('must be a path or a list of paths inside the bundle');
  return list.map((item: string) => inside(root, item, bad));
}

function inside(root: string, path: string, bad: (why: string) => BundleError): string {
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (isAbsolute(path) || rel === '..' || rel.startsWith(`..${sep}`)) throw bad(`names ${JSON.stringify(path)}, outside the bundle's folder`);
  return full;
}

async function readJson(file: string, required: boolean): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !required) return undefined;
    throw new BundleError(`${file} cannot be read: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BundleError(`${file} is not JSON: ${(error as Error).message}.`);
  }
}

const exists = (path: string) => stat(path).then(() => true, () => false);
const isDirectory = (path: string) => stat(path).then((s) => s.isDirectory(), () => false);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
