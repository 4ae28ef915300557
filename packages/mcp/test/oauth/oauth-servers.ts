import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * A loopback OAuth 2.1 authorization server and an MCP resource server of the tests' own,
 * written from the specifications (RFC 8414 metadata, RFC 7591 registration, RFC 7636 PKCE with
 * S256 only, RFC 9728 protected-resource metadata, RFC 8707 resource indicators): every step the
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
  close(): Promise<void>;
}

export interface Grant {
  aud: string;
  scope: string;
  revoked: boolean;
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
  const clients = new Map<string, { redirect_uris: string[]; secret?: string; anyLoopbackPort?: boolean }>();
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
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
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
    if (!open && (grant === undefined || grant.revoked || grant.aud !== mcpUrl || world.refuseEveryToken)) {
      log.push(grant === undefined ? 'rs:401' : grant.revoked ? 'rs:401 revoked' : 'rs:401 audience');
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
