import { createHash, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * A loopback OAuth 2.1 authorization server and an MCP resource server of the tests' own,
 * written from the specifications (RFC 8414 metadata, RFC 7591 registration, RFC 7636 PKCE with
 * S256 only, RFC 9728 protected-resource metadata, RFC 8707 resource indicators, RFC 6749 section 4.4
 * client credentials with a secret or a `private_key_jwt` assertion, RFC 7523): every step the
 * client takes is recorded, and the tests can revoke tokens or mint one for another audience.
 */
export interface OAuthWorld {
  readonly mcpUrl: string;
  readonly issuer: string;
  /** What the servers saw, in order: `metadata`, `register`, `authorize`, `token:authorization_code`, `token:refresh_token`, `pkce-ok`, ... */
  readonly log: string[];
  /** Tokens issued: access token to its audience and the scope granted (space-separated, maybe empty). */
  readonly access: Map<string, Grant>;
  readonly refresh: Map<string, Grant>;
  /** Mints an access token for `aud` (another resource), as a confused or malicious server would hand out. */
  mint(aud: string): string;
  /** When set, the protected-resource metadata names this resource instead of the server's own URL. */
  resourceOverride: string | undefined;
  /** When true, `initialize` and notifications are served without a token: the login is asked for on the next request (a listing). */
  openBeforeLogin: boolean;
  /** When set, `tools/call` needs this scope: a token without it is refused with 403 `insufficient_scope` naming it (step-up). */
  toolScope: string | undefined;
  /** When false, no refresh token is issued (each new token needs the person). */
  refreshTokens: boolean;
  /** When true, the MCP endpoint refuses every token, even one just issued (a misconfigured server). */
  refuseEveryToken: boolean;
  /** Scopes the authorization server never grants, whatever is asked. */
  withheldScopes: readonly string[];
  /** When false, the metadata names no registration endpoint and registration is refused: only pre-registered clients log in. */
  dynamicRegistration: boolean;
  /** When true, the metadata says `client_id_metadata_document_supported`: an https URL is taken as a client ID (its document is not fetched here). */
  clientIdDocuments: boolean;
  /** Registers a client beforehand (RFC 6749 section 2), with a secret for a confidential one; it may come back to any loopback port (RFC 8252 section 7.3). */
  preRegister(id: string, secret?: string): void;
  /** Registers a client that authenticates with `private_key_jwt`: its assertions must verify with `publicKey`. */
  preRegisterKey(id: string, publicKey: KeyObject): void;
  /** The `expires_in` of client credentials tokens, in seconds; the MCP endpoint refuses a token past it. */
  tokenLifetime: number;
  /** The claims of each client assertion that verified, in order. */
  readonly assertions: AssertionClaims[];
  close(): Promise<void>;
}

export interface Grant {
  aud: string;
  scope: string;
  revoked: boolean;
  /** Milliseconds since the epoch; none for tokens of the authorization code grant. */
  expiresAt?: number;
}

export interface AssertionClaims {
  readonly alg: string;
  readonly iss: string;
  readonly sub: string;
  readonly aud: string | string[];
  readonly exp: number;
  readonly iat: number;
  readonly jti: string;
}

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The node:crypto digest and options that verify a JWS signed with `alg` (RFC 7518 section 3). */
function verifierOf(alg: string): { digest: string | null; dsaEncoding?: 'ieee-p1363'; padding?: number } | undefined {
  const bits = /^(RS|PS|ES)(256|384|512)$/.exec(alg);
  if (alg === 'EdDSA') return { digest: null };
  if (bits === null) return undefined;
  const digest = `sha${bits[2]}`;
  if (bits[1] === 'ES') return { digest, dsaEncoding: 'ieee-p1363' };
  // RSA_PKCS1_PSS_PADDING is 6; the salt is the digest's length (RFC 7518 section 3.5).
  return bits[1] === 'PS' ? { digest, padding: 6 } : { digest };
}

/**
 * Verifies a client assertion as RFC 7523 section 3 asks: signed by the client's key, issued by and
 * about the client, for this authorization server, not expired, its `jti` never seen before.
 * Returns the claims, or why it is refused.
 */
function verifyAssertion(assertion: string, clients: ReadonlyMap<string, { publicKey?: KeyObject }>, audiences: readonly string[], seen: Set<string>): AssertionClaims | string {
  const [head, body, signature] = assertion.split('.');
  if (head === undefined || body === undefined || signature === undefined) return 'not a JWS';
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Omit<AssertionClaims, 'alg'>;
  const key = clients.get(claims.iss)?.publicKey;
  if (key === undefined) return `no key registered for ${claims.iss}`;
  const how = verifierOf(header.alg ?? '');
  if (how === undefined) return `alg ${header.alg} refused`;
  const ok = verify(how.digest, Buffer.from(`${head}.${body}`), { key, ...(how.dsaEncoding ? { dsaEncoding: how.dsaEncoding } : {}), ...(how.padding ? { padding: how.padding, saltLength: Number(how.digest!.slice(3)) / 8 } : {}) }, Buffer.from(signature, 'base64url'));
  if (!ok) return 'bad signature';
  if (claims.sub !== claims.iss) return 'sub is not the client';
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.some((value) => audiences.includes(value))) return `aud ${String(claims.aud)} is not this server`;
  if (!(claims.exp > Date.now() / 1000)) return 'expired';
  if (typeof claims.jti !== 'string' || seen.has(claims.jti)) return 'jti missing or replayed';
  seen.add(claims.jti);
  return { alg: header.alg!, ...claims };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}

export async function startOAuthWorld(): Promise<OAuthWorld> {
  const log: string[] = [];
  const clients = new Map<string, { redirect_uris: string[]; secret?: string; anyLoopbackPort?: boolean; publicKey?: KeyObject }>();
  const assertions: AssertionClaims[] = [];
  const jtis = new Set<string>();
  const codes = new Map<string, { client: string; challenge: string; redirect: string; resource: string; scope: string }>();
  const access = new Map<string, Grant>();
  const refresh = new Map<string, Grant>();
  const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('base64url')}`;
  const issue = (aud: string, scope: string) => {
    const at = token('at');
    const rt = token('rt');
    access.set(at, { aud, scope, revoked: false });
    refresh.set(rt, { aud, scope, revoked: false });
    return { access_token: at, token_type: 'Bearer', expires_in: 3600, ...(world.refreshTokens ? { refresh_token: rt } : {}), ...(scope === '' ? {} : { scope }) };
  };

  const as = createServer(async (request, response) => {
    const url = new URL(request.url!, 'http://127.0.0.1');
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      log.push('metadata');
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        ...(world.dynamicRegistration ? { registration_endpoint: `${issuer}/register` } : {}),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        ...(world.clientIdDocuments ? { client_id_metadata_document_supported: true } : {}),
      });
    }
    if (url.pathname === '/register' && request.method === 'POST' && world.dynamicRegistration) {
      const metadata = JSON.parse(await bodyOf(request)) as { redirect_uris: string[] };
      const id = token('client');
      clients.set(id, metadata);
      log.push('register');
      return json(response, 201, { ...metadata, client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const clientId = q.get('client_id') ?? '';
      const redirect = q.get('redirect_uri') ?? '';
      const document = world.clientIdDocuments && clientId.startsWith('https://');
      if (document) log.push('client-id-document');
      const client = document ? { redirect_uris: [], anyLoopbackPort: true } : clients.get(clientId);
      const loopback = /^http:\/\/127\.0\.0\.1:\d+\/callback$/.test(redirect);
      if (client === undefined || !(client.redirect_uris.includes(redirect) || (client.anyLoopbackPort === true && loopback))) return json(response, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return json(response, 400, { error: 'invalid_request', error_description: 'PKCE S256 is required' });
      log.push('authorize');
      const code = token('code');
      const granted = (q.get('scope') ?? '').split(' ').filter((scope) => scope !== '' && !world.withheldScopes.includes(scope));
      codes.set(code, { client: q.get('client_id')!, challenge: q.get('code_challenge')!, redirect, resource: q.get('resource') ?? '', scope: granted.join(' ') });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      return response.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(await bodyOf(request));
      const grant = form.get('grant_type');
      log.push(`token:${grant}`);
      if (grant === 'authorization_code') {
        const entry = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        // A confidential client authenticates with HTTP Basic (RFC 6749 section 2.3.1); a public one sends its client_id.
        const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        const [basicId, basicSecret] = basic === undefined ? [] : Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
        const clientId = basicId ?? form.get('client_id');
        const secret = clients.get(clientId ?? '')?.secret;
        if (secret !== undefined && basicSecret !== secret) return json(response, 401, { error: 'invalid_client' });
        if (secret !== undefined) log.push('client-authenticated');
        if (entry === undefined || entry.client !== clientId || entry.redirect !== form.get('redirect_uri')) return json(response, 400, { error: 'invalid_grant' });
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== entry.challenge) return json(response, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        log.push('pkce-ok');
        return json(response, 200, issue(form.get('resource') ?? entry.resource, entry.scope));
      }
      if (grant === 'refresh_token') {
        const entry = refresh.get(form.get('refresh_token') ?? '');
        if (entry === undefined || entry.revoked) return json(response, 400, { error: 'invalid_grant', error_description: 'the refresh token is revoked' });
        entry.revoked = true;
        return json(response, 200, issue(entry.aud, entry.scope));
      }
      if (grant === 'client_credentials') {
        // The client authenticates with HTTP Basic and its secret, or with a signed assertion (RFC 7523 section 2.2).
        const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        let clientId: string | undefined;
        if (basic !== undefined) {
          const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
          const expected = clients.get(id ?? '')?.secret;
          if (expected === undefined || secret !== expected) return json(response, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
          log.push('client-secret-basic');
          clientId = id;
        } else if (form.get('client_assertion_type') === JWT_BEARER) {
          const claims = verifyAssertion(form.get('client_assertion') ?? '', clients, [issuer, `${issuer}/`, `${issuer}/token`], jtis);
          if (typeof claims === 'string') {
            log.push(`client-assertion-refused: ${claims}`);
            return json(response, 401, { error: 'invalid_client', error_description: `client assertion refused: ${claims}` });
          }
          log.push('client-assertion-ok');
          assertions.push(claims);
          clientId = claims.iss;
        }
        if (clientId === undefined) return json(response, 401, { error: 'invalid_client', error_description: 'no client authentication' });
        const at = token('at');
        const scope = (form.get('scope') ?? '').split(' ').filter((name) => name !== '' && !world.withheldScopes.includes(name)).join(' ');
        access.set(at, { aud: form.get('resource') ?? '', scope, revoked: false, expiresAt: Date.now() + world.tokenLifetime * 1000 });
        // No refresh token (RFC 6749 section 4.4.3): the client asks again.
        return json(response, 200, { access_token: at, token_type: 'Bearer', expires_in: world.tokenLifetime, ...(scope === '' ? {} : { scope }) });
      }
      return json(response, 400, { error: 'unsupported_grant_type' });
    }
    json(response, 404, { error: 'not_found' });
  });
  const issuer = await listen(as);

  const rs = createServer(async (request, response) => {
    const url = new URL(request.url!, 'http://127.0.0.1');
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      log.push('resource-metadata');
      return json(response, 200, { resource: world.resourceOverride ?? mcpUrl, authorization_servers: [issuer], bearer_methods_supported: ['header'] });
    }
    if (url.pathname !== '/mcp') return json(response, 404, { error: 'not_found' });
    const body = request.method === 'POST' ? (JSON.parse(await bodyOf(request)) as { method?: string }) : undefined;
    const method = body?.method ?? '';
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const grant = bearer === undefined ? undefined : access.get(bearer);
    const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
    const open = world.openBeforeLogin && (method === 'initialize' || method.startsWith('notifications/'));
    const expired = grant?.expiresAt !== undefined && Date.now() >= grant.expiresAt;
    if (!open && (grant === undefined || grant.revoked || expired || grant.aud !== mcpUrl || world.refuseEveryToken)) {
      log.push(grant === undefined ? 'rs:401' : grant.revoked ? 'rs:401 revoked' : expired ? 'rs:401 expired' : 'rs:401 audience');
      return json(response, 401, { error: 'invalid_token' }, { 'www-authenticate': bearer === undefined ? challenge : `${challenge}, error="invalid_token"` });
    }
    if (method === 'tools/call' && world.toolScope !== undefined && !(grant?.scope ?? '').split(' ').includes(world.toolScope)) {
      log.push('rs:403 insufficient_scope');
      return json(response, 403, { error: 'insufficient_scope' }, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${world.toolScope}", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
    }
    // Stateless: a server and a transport per request, as the SDK's stateless example does.
    const server = new McpServer({ name: 'oauth-test', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says who is logged in.' }, () => ({ content: [{ type: 'text', text: 'logged in' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  const origin = await listen(rs);
  const mcpUrl = `${origin}/mcp`;

  const world: OAuthWorld = {
    resourceOverride: undefined,
    openBeforeLogin: false,
    toolScope: undefined,
    refreshTokens: true,
    refuseEveryToken: false,
    withheldScopes: [],
    dynamicRegistration: true,
    clientIdDocuments: false,
    preRegister: (id, secret) => void clients.set(id, { redirect_uris: [], anyLoopbackPort: true, ...(secret === undefined ? {} : { secret }) }),
    preRegisterKey: (id, publicKey) => void clients.set(id, { redirect_uris: [], publicKey }),
    tokenLifetime: 3600,
    assertions,
    mcpUrl,
    issuer,
    log,
    access,
    refresh,
    mint: (aud) => {
      const at = token('at');
      access.set(at, { aud, scope: '', revoked: false });
      return at;
    },
    close: async () => {
      for (const server of [as, rs]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
  return world;
}
