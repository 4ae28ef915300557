import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ClientKey, type ClientKeyAlgorithm } from './client-key.js';
import { openOrPrint } from './open-browser.js';

/** `mcpServer({ url, oauth })`: log in to a Streamable HTTP server that asks for OAuth 2.1. */
export interface McpOAuthOptions {
  /**
   * How the token is obtained. `'authorization_code'` (the default): a person logs in in a
   * browser. `'client_credentials'` (RFC 6749 section 4.4): no person; the client authenticates
   * itself with `clientId` and either `clientSecret` (HTTP Basic, or in the form, as the
   * authorization server's metadata asks) or `privateKey`/`privateKeyFile` (`private_key_jwt`,
   * RFC 7523), and asks again when the token expired or is refused. Needs `clientId`; takes
   * `scope` and `tokenFile`, not `authorize`, `redirectPort`, `loginTimeoutMs` or `clientMetadataUrl`.
   */
  readonly grant?: 'authorization_code' | 'client_credentials';
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
  /**
   * With `grant: 'client_credentials'`: the client's private key for `private_key_jwt`, PEM text
   * (PKCS#8, PKCS#1 RSA or SEC1 EC) or a JWK object. Checked when the options are read; kept in
   * memory, never written to the token file, never in an error.
   */
  readonly privateKey?: string | Readonly<Record<string, unknown>>;
  /** The path of a file holding `privateKey` (PEM, or a JWK as JSON); read once, when the options are read. */
  readonly privateKeyFile?: string;
  /**
   * With `grant: 'client_credentials'`: the authorization server (its issuer URL) the client is
   * registered with. The client's secret or assertion is sent to no other: a server naming another
   * authorization server in its metadata fails the login before any token request. Default: the
   * one the server names (trusted as it is; give this where the server is not yours).
   */
  readonly authorizationServer?: string;
  /** The JWS algorithm the assertion is signed with. Default: the key's own (RS256 for RSA, ES256/ES384/ES512 for P-256/384/521, EdDSA for Ed25519). */
  readonly algorithm?: ClientKeyAlgorithm;
}

/** The options with defaults applied. */
export interface ResolvedOAuth {
  readonly grant: 'authorization_code' | 'client_credentials';
  readonly authorize: (url: URL) => void | Promise<void>;
  readonly tokenFile: string;
  readonly redirectPort: number | undefined;
  readonly scope: string | undefined;
  readonly loginTimeoutMs: number;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly clientMetadataUrl: string | undefined;
  /** The `private_key_jwt` key of a client credentials grant (else `undefined`: a secret, or no client authentication). */
  readonly clientKey: ClientKey | undefined;
  /** The only authorization server a client credentials grant sends its credentials to, when given. */
  readonly authorizationServer: URL | undefined;
}

const KEYS: ReadonlySet<string> = new Set(['grant', 'authorize', 'tokenFile', 'redirectPort', 'scope', 'loginTimeoutMs', 'clientId', 'clientSecret', 'clientMetadataUrl', 'privateKey', 'privateKeyFile', 'algorithm', 'authorizationServer']);

/** The options a client credentials grant cannot use: they are for a person's login in a browser. */
const PERSON_ONLY = ['authorize', 'redirectPort', 'loginTimeoutMs', 'clientMetadataUrl'] as const;
/** The options only a client credentials grant uses. */
const KEY_OPTIONS = ['privateKey', 'privateKeyFile', 'algorithm', 'authorizationServer'] as const;

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
  const grant = options.grant ?? 'authorization_code';
  if (grant !== 'authorization_code' && grant !== 'client_credentials') throw new TypeError(`${where}: oauth.grant must be "authorization_code" or "client_credentials", got ${JSON.stringify(grant)}.`);
  const clientKey = grant === 'client_credentials' ? clientCredentialsOf(options, where) : undefined;
  if (grant === 'authorization_code') {
    const misplaced = KEY_OPTIONS.find((key) => options[key] !== undefined);
    if (misplaced !== undefined) throw new TypeError(`${where}: oauth.${misplaced} is for oauth.grant "client_credentials"; a person's login takes clientId and clientSecret.`);
  }
  const authorizationServer = options.authorizationServer === undefined ? undefined : httpUrlOf(options.authorizationServer, where);
  if (options.clientMetadataUrl !== undefined && !isDocumentUrl(options.clientMetadataUrl)) throw new TypeError(`${where}: oauth.clientMetadataUrl must be an https URL with a path, got ${JSON.stringify(options.clientMetadataUrl)}.`);
  const timeout = options.loginTimeoutMs ?? 300_000;
  if (!(typeof timeout === 'number' && timeout > 0)) throw new TypeError(`${where}: oauth.loginTimeoutMs must be a positive number of milliseconds.`);
  // The URL's hash keeps two servers of one name (two configs) from sharing a login.
  // A client credentials login is also the client's: another clientId for the same server is another login.
  const key = createHash('sha256').update(grant === 'client_credentials' ? `${url.href}\n${options.clientId}` : url.href).digest('hex').slice(0, 12);
  return {
    grant,
    authorize: options.authorize ?? openOrPrint(name),
    tokenFile: options.tokenFile ?? join(weirHome(), 'mcp-oauth', `${name}-${key}.json`),
    redirectPort: port,
    scope: options.scope,
    loginTimeoutMs: timeout,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientMetadataUrl: options.clientMetadataUrl,
    clientKey,
    authorizationServer,
  };
}

function httpUrlOf(value: unknown, where: string): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new TypeError(`${where}: oauth.authorizationServer must be the authorization server's issuer URL (https:), got ${JSON.stringify(value)}.`);
  return url;
}

/** Checks the options of a client credentials grant: a client ID, and one way for it to authenticate. */
function clientCredentialsOf(options: McpOAuthOptions, where: string): ClientKey | undefined {
  const personal = PERSON_ONLY.find((key) => options[key] !== undefined);
  if (personal !== undefined) throw new TypeError(`${where}: oauth.${personal} is for a person's login; oauth.grant "client_credentials" has no browser and no redirect.`);
  if (options.clientId === undefined) throw new TypeError(`${where}: oauth.grant "client_credentials" needs oauth.clientId (a client registered with the authorization server).`);
  const ways = (['clientSecret', 'privateKey', 'privateKeyFile'] as const).filter((key) => options[key] !== undefined);
  if (ways.length !== 1) {
    throw new TypeError(`${where}: oauth.grant "client_credentials" needs exactly one of oauth.clientSecret, oauth.privateKey, oauth.privateKeyFile, got ${ways.length === 0 ? 'none' : ways.map((key) => `oauth.${key}`).join(' and ')}.`);
  }
  const way = ways[0]!;
  if (way === 'clientSecret') {
    if (options.algorithm !== undefined) throw new TypeError(`${where}: oauth.algorithm is for oauth.privateKey or oauth.privateKeyFile (private_key_jwt), not oauth.clientSecret.`);
    return undefined;
  }
  return ClientKey.of(options[way], way === 'privateKeyFile', options.algorithm, `oauth.${way}`, where);
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
