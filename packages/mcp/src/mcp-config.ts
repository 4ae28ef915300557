import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { McpServerOptions } from './mcp-server-options.js';
import { resolveOAuth, type McpOAuthOptions } from './oauth/oauth-options.js';
import { assertTierMap, type McpTierMap } from './resolve-tier.js';
import { isServerName } from './tool-names.js';

/** A config file that does not have the `mcpServers` shape; the message names the file and the entry. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
  readonly code = 'MCP_CONFIG_INVALID';
}

const STDIO_KEYS = new Set(['command', 'args', 'env', 'cwd', 'type', 'tiers', 'disabled', 'timeoutMs', 'startTimeoutMs', 'idleTimeoutMs']);
const HTTP_KEYS = new Set(['url', 'headers', 'oauth', 'type', 'tiers', 'disabled', 'timeoutMs', 'startTimeoutMs', 'idleTimeoutMs']);

/**
 * Reads servers from the JSON shape most MCP clients share:
 * `{ "mcpServers": { "fs": { "command": "npx", "args": [...], "env": {...} }, "api": { "url": "https://..." } } }`.
 * Each key is the server's `name`. Also read: `cwd`, `headers`, `oauth` (`true` or `{ grant, scope, redirectPort, tokenFile, loginTimeoutMs, clientId, clientSecret, clientMetadataUrl, privateKey, privateKeyFile, algorithm, authorizationServer }`), `type` (`stdio`, `http`,
 * `streamable-http` or `sse`: the transport is chosen from `command`/`url` either way), `disabled:
 * true` (left out), and weir's own `tiers` and timeouts. A relative `cwd` is taken from `baseDir`.
 * Throws `McpConfigError` naming `source` and the entry on anything else.
 */
export function parseMcpConfig(config: unknown, source = 'the MCP config', baseDir = process.cwd()): McpServerOptions[] {
  if (!isRecord(config) || !isRecord(config.mcpServers)) {
    throw new McpConfigError(`${source}: expected an object { "mcpServers": { "<name>": { "command": ... } | { "url": ... } } }.`);
  }
  const servers: McpServerOptions[] = [];
  for (const [name, entry] of Object.entries(config.mcpServers)) {
    const where = `${source}: mcpServers.${name}`;
    if (!isServerName(name)) throw new McpConfigError(`${where}: the name must be 1 to 30 letters, digits, "-" or single "_" (it prefixes tool names as ${name}__<tool>).`);
    if (!isRecord(entry)) throw new McpConfigError(`${where}: expected an object with "command" or "url".`);
    if (entry.disabled === true) continue;
    const hasCommand = entry.command !== undefined;
    const hasUrl = entry.url !== undefined;
    if (hasCommand === hasUrl) throw new McpConfigError(`${where}: give either "command" (a stdio server) or "url" (an HTTP server).`);
    const known = hasCommand ? STDIO_KEYS : HTTP_KEYS;
    const unknown = Object.keys(entry).filter((key) => !known.has(key));
    if (unknown.length > 0) throw new McpConfigError(`${where}: unknown key(s) ${unknown.map((key) => JSON.stringify(key)).join(', ')}.`);
    const common = { name, ...tiersOf(entry.tiers, where), ...timeouts(entry, where) };
    if (hasCommand) {
      if (typeof entry.command !== 'string' || entry.command.trim() === '') throw new McpConfigError(`${where}: "command" must be a non-empty string.`);
      servers.push({
        ...common,
        command: entry.command,
        ...(entry.args === undefined ? {} : { args: stringArray(entry.args, `${where}.args`) }),
        ...(entry.env === undefined ? {} : { env: stringRecord(entry.env, `${where}.env`) }),
        ...(entry.cwd === undefined ? {} : { cwd: resolve(baseDir, string(entry.cwd, `${where}.cwd`)) }),
      });
    } else {
      servers.push({
        ...common,
        url: string(entry.url, `${where}.url`),
        ...(entry.headers === undefined ? {} : { headers: stringRecord(entry.headers, `${where}.headers`) }),
        ...(entry.oauth === undefined || entry.oauth === false ? {} : { oauth: oauthOf(entry.oauth, name, entry.url, where, baseDir) }),
      });
    }
  }
  return servers;
}

/** Reads and parses a config file; a relative `cwd` in it is taken from the file's folder. */
export async function readMcpConfig(path: string): Promise<McpServerOptions[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new McpConfigError(`Cannot read the MCP config ${path}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`The MCP config ${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseMcpConfig(json, path, resolve(path, '..'));
}

const OAUTH_KEYS: ReadonlySet<string> = new Set(['grant', 'scope', 'redirectPort', 'tokenFile', 'loginTimeoutMs', 'clientId', 'clientSecret', 'clientMetadataUrl', 'privateKey', 'privateKeyFile', 'algorithm', 'authorizationServer']);
const OAUTH_SHAPE = '{ grant?, scope?, redirectPort?, tokenFile?, loginTimeoutMs?, clientId?, clientSecret?, clientMetadataUrl?, privateKey?, privateKeyFile?, algorithm?, authorizationServer? }';

/**
 * `"oauth": true`, or `{ grant?, scope?, redirectPort?, tokenFile?, loginTimeoutMs?, clientId?, clientSecret?, clientMetadataUrl?, privateKey?, privateKeyFile?, algorithm?, authorizationServer? }`
 * (a relative `tokenFile` or `privateKeyFile` from the file's folder). The options are checked as
 * `mcpServer` checks them (a bad combination, a key that does not parse), so a mistake is an
 * `McpConfigError` naming the entry and the option, when the file is read.
 */
function oauthOf(value: unknown, name: string, url: unknown, where: string, baseDir: string): true | McpOAuthOptions {
  if (value === true) return true;
  if (!isRecord(value)) throw new McpConfigError(`${where}.oauth: expected true or an object ${OAUTH_SHAPE}.`);
  const unknown = Object.keys(value).filter((key) => !OAUTH_KEYS.has(key));
  if (unknown.length > 0) throw new McpConfigError(`${where}.oauth: unknown key(s) ${unknown.map((key) => JSON.stringify(key)).join(', ')}.`);
  const number = (key: string) => {
    const entry = value[key];
    if (entry !== undefined && typeof entry !== 'number') throw new McpConfigError(`${where}.oauth.${key} must be a number.`);
    return entry as number | undefined;
  };
  const text = (key: string) => (value[key] === undefined ? {} : { [key]: string(value[key], `${where}.oauth.${key}`) });
  const path = (key: string) => (value[key] === undefined ? {} : { [key]: resolve(baseDir, string(value[key], `${where}.oauth.${key}`)) });
  const redirectPort = number('redirectPort');
  const loginTimeoutMs = number('loginTimeoutMs');
  const { privateKey } = value;
  if (privateKey !== undefined && typeof privateKey !== 'string' && !isRecord(privateKey)) throw new McpConfigError(`${where}.oauth.privateKey must be PEM text or a JWK object.`);
  const options = {
    ...text('grant'),
    ...text('scope'),
    ...path('tokenFile'),
    ...(redirectPort === undefined ? {} : { redirectPort }),
    ...(loginTimeoutMs === undefined ? {} : { loginTimeoutMs }),
    ...text('clientId'),
    ...text('clientSecret'),
    ...text('clientMetadataUrl'),
    ...(privateKey === undefined ? {} : { privateKey }),
    ...path('privateKeyFile'),
    ...text('algorithm'),
    ...text('authorizationServer'),
  } as McpOAuthOptions;
  let at: URL | undefined;
  try {
    at = new URL(String(url));
  } catch {
    // A bad url is told when the server is made; the oauth options are checked against a good one only.
  }
  if (at !== undefined) {
    try {
      resolveOAuth(options, name, at, where);
    } catch (error) {
      throw new McpConfigError((error as Error).message, { cause: error });
    }
  }
  return options;
}

function tiersOf(tiers: unknown, where: string): { tiers?: McpTierMap } {
  if (tiers === undefined) return {};
  try {
    assertTierMap(tiers, where);
  } catch (error) {
    throw new McpConfigError((error as Error).message);
  }
  return { tiers: tiers as McpTierMap };
}

function timeouts(entry: Record<string, unknown>, where: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of ['timeoutMs', 'startTimeoutMs', 'idleTimeoutMs']) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value > 0)) throw new McpConfigError(`${where}.${key}: must be a positive number of milliseconds.`);
    out[key] = value;
  }
  return out;
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new McpConfigError(`${where}: must be a string.`);
  return value;
}

function stringArray(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new McpConfigError(`${where}: must be an array of strings.`);
  return value;
}

function stringRecord(value: unknown, where: string): Record<string, string> {
  if (!isRecord(value) || !Object.values(value).every((item) => typeof item === 'string')) throw new McpConfigError(`${where}: must be an object of strings.`);
  return value as Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
