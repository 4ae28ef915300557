import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { openOrPrint } from './open-browser.js';

/** `mcpServer({ url, oauth })`: log in to a Streamable HTTP server that asks for OAuth 2.1. */
export interface McpOAuthOptions {
  /**
   * Shows the person the authorization URL: opens their browser, or prints it. Called once per
   * login, with the URL to visit; the login ends when the browser comes back to the loopback
   * redirect. Default: the URL printed to stderr and, on a terminal, the browser opened with it.
   */
  readonly authorize?: (url: URL) => void | Promise<void>;
  /** The token file. Default: `<weir home>/mcp-oauth/<name>-<hash of the url>.json` (weir home: `WEIR_HOME`, else `~/.weir`). Written with mode 0600. */
  readonly tokenFile?: string;
  /** The loopback redirect's port (127.0.0.1). Default: the one the stored registration used, else a free one. */
  readonly redirectPort?: number;
  /** The scope asked for. Default: the server's (from its metadata), else none. */
  readonly scope?: string;
  /** How long a login may take, from the URL shown to the browser's return. Default 300 000 (5 minutes). */
  readonly loginTimeoutMs?: number;
  /**
   * A client registered with the authorization server beforehand, for a server that offers no
   * dynamic registration: used instead of registering. Its redirect URI must be the loopback one
   * (`http://127.0.0.1:<redirectPort>/callback`; set `redirectPort` unless the server accepts any
   * loopback port, RFC 8252 section 7.3).
   */
  readonly clientId?: string;
  /** The secret of `clientId`, for a confidential client (sent as the server's metadata asks: HTTP Basic, or in the form). Kept in memory, never written to the token file. */
  readonly clientSecret?: string;
  /**
   * The HTTPS URL of a client ID metadata document describing this client: its client ID where the
   * authorization server supports them (`client_id_metadata_document_supported`); elsewhere weir
   * registers as usual. weir publishes no such document: this is the URL of one you host.
   */
  readonly clientMetadataUrl?: string;
}

/** The options with defaults applied. */
export interface ResolvedOAuth {
  readonly authorize: (url: URL) => void | Promise<void>;
  readonly tokenFile: string;
  readonly redirectPort: number | undefined;
  readonly scope: string | undefined;
  readonly loginTimeoutMs: number;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly clientMetadataUrl: string | undefined;
}

const KEYS: ReadonlySet<string> = new Set(['authorize', 'tokenFile', 'redirectPort', 'scope', 'loginTimeoutMs', 'clientId', 'clientSecret', 'clientMetadataUrl']);

/** The user's weir folder, as the CLI finds it: `WEIR_HOME`, or `~/.weir`. */
export function weirHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.WEIR_HOME?.trim();
  return set === undefined || set === '' ? join(homedir(), '.weir') : set;
}

/** Checks `oauth` for server `name` at `url`; a mistake is a `TypeError` naming the server. */
export function resolveOAuth(oauth: true | McpOAuthOptions, name: string, url: URL, where: string): ResolvedOAuth {
  const options: McpOAuthOptions = oauth === true ? {} : oauth;
  if (typeof options !== 'object' || options === null) throw new TypeError(`${where}: oauth must be true or an object like { authorize }.`);
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) throw new TypeError(`${where}: oauth has unknown key ${JSON.stringify(key)}; expected ${[...KEYS].join(', ')}.`);
  }
  if (options.authorize !== undefined && typeof options.authorize !== 'function') throw new TypeError(`${where}: oauth.authorize must be a function of the URL.`);
  if (options.tokenFile !== undefined && (typeof options.tokenFile !== 'string' || options.tokenFile === '')) throw new TypeError(`${where}: oauth.tokenFile must be a path.`);
  const port = options.redirectPort;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new TypeError(`${where}: oauth.redirectPort must be a port number, got ${String(port)}.`);
  if (options.scope !== undefined && typeof options.scope !== 'string') throw new TypeError(`${where}: oauth.scope must be a string.`);
  for (const key of ['clientId', 'clientSecret'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) throw new TypeError(`${where}: oauth.${key} must be a non-empty string.`);
  }
  if (options.clientSecret !== undefined && options.clientId === undefined) throw new TypeError(`${where}: oauth.clientSecret needs oauth.clientId.`);
  if (options.clientMetadataUrl !== undefined && !isDocumentUrl(options.clientMetadataUrl)) throw new TypeError(`${where}: oauth.clientMetadataUrl must be an https URL with a path, got ${JSON.stringify(options.clientMetadataUrl)}.`);
  const timeout = options.loginTimeoutMs ?? 300_000;
  if (!(typeof timeout === 'number' && timeout > 0)) throw new TypeError(`${where}: oauth.loginTimeoutMs must be a positive number of milliseconds.`);
  // The URL's hash keeps two servers of one name (two configs) from sharing a login.
  const key = createHash('sha256').update(url.href).digest('hex').slice(0, 12);
  return {
    authorize: options.authorize ?? openOrPrint(name),
    tokenFile: options.tokenFile ?? join(weirHome(), 'mcp-oauth', `${name}-${key}.json`),
    redirectPort: port,
    scope: options.scope,
    loginTimeoutMs: timeout,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientMetadataUrl: options.clientMetadataUrl,
  };
}

/** A client ID metadata document is named by an https URL with a path (its URL is the client ID). */
function isDocumentUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}
