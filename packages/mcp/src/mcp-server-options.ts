import { redactUrl } from '@weir/core';
import type { McpElicitor } from './client-requests/answer-elicitation.js';
import type { McpSamplingOptions } from './client-requests/answer-sampling.js';
import { isMcpRoots, mcpRoots, type McpRoots } from './mcp-roots.js';
import { resolveOAuth, type McpOAuthOptions, type ResolvedOAuth } from './oauth/oauth-options.js';
import { copyTierMap, type McpTierMap } from './resolve-tier.js';
import { isServerName } from './tool-names.js';

/** What every server takes, whatever its transport. */
export interface McpServerCommonOptions {
  /** Names the plugin (`mcp:<name>`) and prefixes every tool: `<name>__<tool>`. Letters, digits, `-`, single `_`; at most 30. */
  readonly name: string;
  /** Tiers by the server's own tool names; `'*'` for the rest. Unmapped tools are `dangerous`. */
  readonly tiers?: McpTierMap;
  /** How long the server has to start and answer `initialize`. Default 30 000 ms. */
  readonly startTimeoutMs?: number;
  /** Hard total deadline of one call, whatever progress the server reports. Default: the harness's. */
  readonly timeoutMs?: number;
  /** A call with no answer and no progress for this long is cancelled. Default 60 000 ms. */
  readonly idleTimeoutMs?: number;
  /** Reconnections tried in a row after the server went away, before calls fail fast. Default 3. */
  readonly reconnectAttempts?: number;
  /**
   * The folders the server is told it may work in (MCP roots): paths, or `mcpRoots([...])` to
   * change them later (each change is announced). Default: none, and the roots capability is not
   * offered: a server that reads roots (server-filesystem) replaces the folders it was started
   * with by them, so a default would change what it may touch.
   */
  readonly roots?: readonly string[] | McpRoots;
  /**
   * Answers the server's elicitations (`elicitation/create`) where a person can fill in a form:
   * the answer is completed with the schema's defaults and checked against it before it is sent.
   * Default: the harness's approver is asked (a form can then be sent only with its defaults; a
   * URL is shown, never opened); with no approver, every elicitation is declined.
   */
  readonly elicit?: McpElicitor;
  /**
   * The model that answers the server's `sampling/createMessage`, each time behind an approval and
   * charged to the current turn's budget. Default: none, and the sampling capability is not offered.
   */
  readonly sampling?: McpSamplingOptions;
}

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServerOptions extends McpServerCommonOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a minimal environment (HOME, LOGNAME, PATH, SHELL, TERM, USER): secrets are not inherited. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP, falling back to the older HTTP+SSE transport. */
export interface McpHttpServerOptions extends McpServerCommonOptions {
  readonly url: string | URL;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Log in with OAuth 2.1 when the server asks (a 401): discovery, dynamic client registration,
   * authorization code with PKCE through the person's browser and a loopback redirect, refresh;
   * the login is kept in the weir home (mode 0600). `true` for the defaults. For an agent with no
   * person: `{ grant: 'client_credentials', clientId, clientSecret | privateKey | privateKeyFile }`.
   */
  readonly oauth?: true | McpOAuthOptions;
}

export type McpServerOptions = McpStdioServerOptions | McpHttpServerOptions;

/** Options after validation, with every default applied. */
export type ResolvedServerOptions = (
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>>; readonly cwd: string | undefined }
  | { readonly kind: 'http'; readonly url: URL; readonly headers: Readonly<Record<string, string>>; readonly oauth: ResolvedOAuth | undefined }
) & {
  readonly name: string;
  readonly tiers: McpTierMap | undefined;
  readonly startTimeoutMs: number;
  readonly timeoutMs: number | undefined;
  readonly idleTimeoutMs: number;
  readonly reconnectAttempts: number;
  readonly roots: McpRoots | undefined;
  readonly elicit: McpElicitor | undefined;
  readonly sampling: { readonly model: McpSamplingOptions['model']; readonly maxTokens: number } | undefined;
};

const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'TMPDIR', 'LANG'];

/** Validates `mcpServer` options; every mistake is a `TypeError` naming the server and the option. */
export function resolveServerOptions(options: McpServerOptions): ResolvedServerOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('mcpServer: expected options { name, command } or { name, url }.');
  const { name } = options;
  if (!isServerName(name)) {
    throw new TypeError(`mcpServer: name ${JSON.stringify(name)} must be 1 to 30 letters, digits, "-" or single "_" (it prefixes tool names as <name>__<tool>).`);
  }
  const where = `mcpServer "${name}"`;
  const common = {
    name,
    tiers: copyTierMap(options.tiers, where),
    startTimeoutMs: positive(options.startTimeoutMs, 'startTimeoutMs', where) ?? 30_000,
    timeoutMs: positive(options.timeoutMs, 'timeoutMs', where),
    idleTimeoutMs: positive(options.idleTimeoutMs, 'idleTimeoutMs', where) ?? 60_000,
    reconnectAttempts: count(options.reconnectAttempts, 'reconnectAttempts', where) ?? 3,
    roots: options.roots === undefined ? undefined : isMcpRoots(options.roots) ? options.roots : rootsOf(options.roots, where),
    elicit: elicitOf(options.elicit, where),
    sampling: samplingOf(options.sampling, where),
  };
  const hasCommand = 'command' in options && options.command !== undefined;
  const hasUrl = 'url' in options && options.url !== undefined;
  if (hasCommand === hasUrl) throw new TypeError(`${where}: give either command (a stdio server) or url (an HTTP server), not ${hasCommand ? 'both' : 'neither'}.`);
  if (hasCommand) {
    const stdio = options as McpStdioServerOptions;
    if (typeof stdio.command !== 'string' || stdio.command.trim() === '') throw new TypeError(`${where}: command must be a non-empty string.`);
    if (stdio.args !== undefined && !(Array.isArray(stdio.args) && stdio.args.every((arg) => typeof arg === 'string'))) {
      throw new TypeError(`${where}: args must be an array of strings.`);
    }
    assertStringRecord(stdio.env, 'env', where);
    if (stdio.cwd !== undefined && typeof stdio.cwd !== 'string') throw new TypeError(`${where}: cwd must be a string.`);
    return { ...common, kind: 'stdio', command: stdio.command, args: [...(stdio.args ?? [])], env: { ...inheritedEnv(), ...stdio.env }, cwd: stdio.cwd };
  }
  const http = options as McpHttpServerOptions;
  let url: URL;
  try {
    url = new URL(String(http.url));
  } catch {
    throw new TypeError(`${where}: url ${JSON.stringify(redactUrl(String(http.url)))} is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${where}: url must be http: or https:, got ${url.protocol}`);
  assertStringRecord(http.headers, 'headers', where);
  const oauth = http.oauth === undefined ? undefined : resolveOAuth(http.oauth, name, url, where);
  return { ...common, kind: 'http', url, headers: { ...http.headers }, oauth };
}

function elicitOf(elicit: unknown, where: string): McpElicitor | undefined {
  if (elicit !== undefined && typeof elicit !== 'function') throw new TypeError(`${where}: elicit must be a function (request) => answer, got ${typeof elicit}.`);
  return elicit as McpElicitor | undefined;
}

function samplingOf(sampling: McpSamplingOptions | undefined, where: string): ResolvedServerOptions['sampling'] {
  if (sampling === undefined) return undefined;
  if (typeof sampling !== 'object' || sampling === null || typeof sampling.model?.complete !== 'function') {
    throw new TypeError(`${where}: sampling must be { model, maxTokens? } with a model that has complete().`);
  }
  const maxTokens = sampling.maxTokens ?? 4096;
  if (!Number.isInteger(maxTokens) || maxTokens <= 0) throw new TypeError(`${where}: sampling.maxTokens must be a positive whole number, got ${String(sampling.maxTokens)}.`);
  return { model: sampling.model, maxTokens };
}

function rootsOf(folders: readonly string[], where: string): McpRoots {
  try {
    return mcpRoots(folders);
  } catch {
    throw new TypeError(`${where}: roots must be an array of folder paths or mcpRoots([...]).`);
  }
}

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    // A value starting with "()" is a shell function export: never passed on.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return env;
}

function positive(value: number | undefined, option: string, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0)) throw new TypeError(`${where}: ${option} must be a positive number of milliseconds, got ${String(value)}.`);
  return value;
}

function count(value: number | undefined, option: string, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${where}: ${option} must be a non-negative integer, got ${String(value)}.`);
  return value;
}

function assertStringRecord(value: unknown, option: string, where: string): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw new TypeError(`${where}: ${option} must be an object of string values.`);
  }
}
