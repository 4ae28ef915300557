import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type Harness } from '@weir/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcpServer, type McpOAuthOptions } from '../src/index.js';
import { startOAuthWorld, type OAuthWorld } from './oauth/oauth-servers.js';

// The client credentials grant (RFC 6749 section 4.4): an agent with no person to log in gets its
// token from the authorization server with its own credentials, a secret (client_secret_basic) or a
// signed assertion (private_key_jwt, RFC 7523), and asks again when the token expired or is refused.
// The authorization server is the tests' own (test/oauth/oauth-servers.ts): it checks the secret, or
// the assertion's signature with the registered public key and its claims (iss, sub, aud, exp, jti).

let world: OAuthWorld;
let dir: string;
const open: Harness[] = [];

async function connected(oauth: McpOAuthOptions, file: string): Promise<Harness> {
  const harness = createHarness();
  open.push(harness);
  await harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, tiers: { '*': 'read-only' }, oauth: { tokenFile: join(dir, file), ...oauth } }));
  return harness;
}

const whoami = (harness: Harness) => harness.executeToolCall({ id: 'w1', name: 'remote__whoami', arguments: {} });
const tokenRequests = () => world.log.filter((line) => line === 'token:client_credentials').length;

beforeAll(async () => {
  world = await startOAuthWorld();
  dir = mkdtempSync(join(tmpdir(), 'weir-oauth-cc-'));
});
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
  world.log.length = 0;
  world.tokenLifetime = 3600;
});
afterAll(async () => {
  await world?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OAuth client credentials grant', () => {
  it('client_secret_basic: a token without a browser or a registration, bound to the server, kept without the secret and reused by the next harness', async () => {
    world.preRegister('weir-svc', 'svc-s3cret-value');
    const oauth: McpOAuthOptions = { grant: 'client_credentials', clientId: 'weir-svc', clientSecret: 'svc-s3cret-value', authorizationServer: world.issuer };
    expect(await whoami(await connected(oauth, 'basic.json'))).toMatchObject({ ok: true, content: 'logged in' });
    expect(world.log).toContain('client-secret-basic');
    expect(world.log).not.toContain('register');
    expect(world.log).not.toContain('authorize');
    expect(tokenRequests()).toBe(1);
    // The token asked for this server (RFC 8707 resource), so the server takes it.
    expect([...world.access.values()].at(-1)?.aud).toBe(world.mcpUrl);
    const stored = readFileSync(join(dir, 'basic.json'), 'utf8');
    expect(stored).toContain('access_token');
    expect(stored).not.toContain('svc-s3cret-value');
    // Another harness (a restarted agent) uses the stored token: no token request.
    world.log.length = 0;
    expect(await whoami(await connected(oauth, 'basic.json'))).toMatchObject({ ok: true });
    expect(tokenRequests()).toBe(0);
  });

  it('private_key_jwt: the token endpoint gets an ES256 assertion signed with the client key (PEM), iss and sub the client, aud the authorization server', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    world.preRegisterKey('weir-jwt', publicKey);
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(await whoami(await connected({ grant: 'client_credentials', clientId: 'weir-jwt', privateKey: pem }, 'jwt.json'))).toMatchObject({ ok: true, content: 'logged in' });
    expect(world.log).toContain('client-assertion-ok');
    const claims = world.assertions.at(-1)!;
    expect(claims).toMatchObject({ alg: 'ES256', iss: 'weir-jwt', sub: 'weir-jwt', aud: world.issuer });
    expect(claims.exp).toBeGreaterThan(claims.iat);
    const stored = readFileSync(join(dir, 'jwt.json'), 'utf8');
    const d = privateKey.export({ format: 'jwk' }).d!;
    expect(stored).not.toContain(d);
    expect(stored).not.toContain(pem.split('\n')[1]!);
  });

  it('private_key_jwt from a key file holding a JWK (Ed25519: EdDSA, the key\'s own algorithm)', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    world.preRegisterKey('weir-ed', publicKey);
    const file = join(dir, 'ed.jwk.json');
    writeFileSync(file, JSON.stringify(privateKey.export({ format: 'jwk' })), { mode: 0o600 });
    expect(await whoami(await connected({ grant: 'client_credentials', clientId: 'weir-ed', privateKeyFile: file }, 'ed.json'))).toMatchObject({ ok: true });
    expect(world.assertions.at(-1)).toMatchObject({ alg: 'EdDSA', iss: 'weir-ed' });
  });

  it('private_key_jwt with an RSA key in PKCS#1 PEM, RS256 by default or PS256 when asked', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    world.preRegisterKey('weir-rsa', publicKey);
    const pem = privateKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    expect(await whoami(await connected({ grant: 'client_credentials', clientId: 'weir-rsa', privateKey: pem }, 'rsa.json'))).toMatchObject({ ok: true });
    expect(world.assertions.at(-1)).toMatchObject({ alg: 'RS256', iss: 'weir-rsa' });
    expect(await whoami(await connected({ grant: 'client_credentials', clientId: 'weir-rsa', privateKey: pem, algorithm: 'PS256' }, 'rsa-pss.json'))).toMatchObject({ ok: true });
    expect(world.assertions.at(-1)).toMatchObject({ alg: 'PS256', iss: 'weir-rsa' });
  });

  it('a token past its expires_in is not sent: a new one is asked for; one the server refuses (revoked) is replaced too', async () => {
    world.preRegister('weir-exp', 'exp-secret');
    world.tokenLifetime = 600;
    const harness = await connected({ grant: 'client_credentials', clientId: 'weir-exp', clientSecret: 'exp-secret' }, 'expiry.json');
    // The clock (Date only: the timers and the sockets run as usual) is moved past the token's life,
    // for weir and the servers alike; no waiting, and no race with a slow machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      expect(await whoami(harness)).toMatchObject({ ok: true });
      expect(tokenRequests()).toBe(1);
      vi.setSystemTime(Date.now() + 601_000);
      expect(await whoami(harness)).toMatchObject({ ok: true });
      expect(tokenRequests()).toBe(2);
      // weir knew the token had expired: the server never saw it again.
      expect(world.log).not.toContain('rs:401 expired');
      // Within its expires_in less the margin (a tenth of 600 s, at most 30 s), the token is kept.
      vi.setSystemTime(Date.now() + 560_000);
      expect(await whoami(harness)).toMatchObject({ ok: true });
      expect(tokenRequests()).toBe(2);
      vi.setSystemTime(Date.now() + 20_000);
      expect(await whoami(harness)).toMatchObject({ ok: true });
      expect(tokenRequests()).toBe(3);
      expect(world.log).not.toContain('rs:401 expired');
    } finally {
      vi.useRealTimers();
    }
    for (const grant of world.access.values()) grant.revoked = true;
    expect(await whoami(harness)).toMatchObject({ ok: true });
    expect(world.log).toContain('rs:401 revoked');
    expect(tokenRequests()).toBe(4);
  });

  it('a 403 insufficient_scope asks for a token with the scope it names, and later tokens keep it', async () => {
    world.preRegister('weir-scope', 'scope-secret');
    world.toolScope = 'tools:call';
    try {
      const harness = await connected({ grant: 'client_credentials', clientId: 'weir-scope', clientSecret: 'scope-secret', scope: 'read' }, 'scope.json');
      expect([...world.access.values()].at(-1)?.scope).toBe('read');
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
      expect(world.log).toContain('rs:403 insufficient_scope');
      expect([...world.access.values()].at(-1)?.scope).toBe('tools:call');
      for (const grant of world.access.values()) grant.revoked = true;
      world.log.length = 0;
      expect(await whoami(harness)).toMatchObject({ ok: true });
      expect(world.log).not.toContain('rs:403 insufficient_scope');
      expect(tokenRequests()).toBe(1);
    } finally {
      world.toolScope = undefined;
    }
  });

  it('a wrong secret fails use() with MCP_AUTH_FAILED naming the client and the refusal, not the secret', async () => {
    world.preRegister('weir-bad', 'the-right-secret');
    const failed = connected({ grant: 'client_credentials', clientId: 'weir-bad', clientSecret: 'a-wrong-secret' }, 'bad.json');
    await expect(failed).rejects.toMatchObject({ cause: { code: 'MCP_AUTH_FAILED' } });
    const error = (await failed.then(() => undefined, (caught: unknown) => caught)) as Error & { cause: Error };
    expect(error.cause.message).toMatch(/refused a token to client "weir-bad" \(invalid_client: client authentication failed\)/);
    expect(`${error.message} ${error.cause.message}`).not.toContain('a-wrong-secret');
    expect(world.log).not.toContain('client-secret-basic');
  });

  it('oauth.authorizationServer: a server naming another authorization server fails the login before any token request', async () => {
    world.preRegister('weir-pinned', 'pinned-secret');
    const failed = connected({ grant: 'client_credentials', clientId: 'weir-pinned', clientSecret: 'pinned-secret', authorizationServer: 'https://login.weir.example/' }, 'pinned.json');
    await expect(failed).rejects.toMatchObject({
      cause: { code: 'MCP_AUTH_FAILED', message: expect.stringMatching(/names the authorization server http:\/\/127\.0\.0\.1:\d+\/?, not oauth\.authorizationServer https:\/\/login\.weir\.example\/; the client's credentials were not sent to it/) },
    });
    expect(tokenRequests()).toBe(0);
  });

  it('an assertion signed with another key than the registered one is refused', async () => {
    world.preRegisterKey('weir-other', generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const failed = connected({ grant: 'client_credentials', clientId: 'weir-other', privateKey: stranger }, 'other.json');
    await expect(failed).rejects.toMatchObject({ cause: { code: 'MCP_AUTH_FAILED', message: expect.stringMatching(/invalid_client: client assertion refused: bad signature/) } });
  });

  it('refuses each bad combination with a one-line error naming the option', () => {
    const url = 'https://svc.example/mcp';
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    const cases: [McpOAuthOptions, RegExp][] = [
      [{ grant: 'client_credentials', clientSecret: 's' }, /oauth.clientSecret needs oauth.clientId/],
      [{ grant: 'client_credentials', clientId: 'c' }, /exactly one of oauth.clientSecret, oauth.privateKey, oauth.privateKeyFile, got none/],
      [{ grant: 'client_credentials', clientId: 'c', clientSecret: 's', privateKey: rsa }, /got oauth.clientSecret and oauth.privateKey/],
      [{ grant: 'client_credentials', clientId: 'c', clientSecret: 's', authorize: () => undefined }, /oauth.authorize is for a person's login/],
      [{ grant: 'client_credentials', clientId: 'c', clientSecret: 's', redirectPort: 8080 }, /oauth.redirectPort is for a person's login/],
      [{ grant: 'client_credentials', clientId: 'c', clientSecret: 's', algorithm: 'RS256' }, /oauth.algorithm is for oauth.privateKey or oauth.privateKeyFile/],
      [{ grant: 'client_credentials', clientId: 'c', privateKey: 'not a key' }, /oauth.privateKey is not a private key .*a path goes in oauth.privateKeyFile/],
      [{ grant: 'client_credentials', clientId: 'c', privateKey: rsa, algorithm: 'ES256' }, /oauth.algorithm ES256 does not fit oauth.privateKey: it needs an EC key, the key is rsa/],
      [{ grant: 'client_credentials', clientId: 'c', privateKey: rsa, algorithm: 'HS256' as never }, /oauth.algorithm must be one of RS256/],
      [{ grant: 'client_credentials', clientId: 'c', privateKeyFile: join(dir, 'missing.pem') }, /oauth.privateKeyFile ".*missing.pem" cannot be read \(ENOENT\)/],
      [{ grant: 'password' as never, clientId: 'c' }, /oauth.grant must be "authorization_code" or "client_credentials"/],
      [{ clientId: 'c', privateKey: rsa }, /oauth.privateKey is for oauth.grant "client_credentials"/],
      [{ grant: 'client_credentials', clientId: 'c', clientSecret: 's', authorizationServer: 'login.example' }, /oauth.authorizationServer must be the authorization server's issuer URL/],
    ];
    for (const [oauth, message] of cases) {
      let thrown: unknown;
      try {
        mcpServer({ name: 'svc', url, oauth });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(Object.keys(oauth))).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).not.toContain('\n');
      expect((thrown as Error).message).not.toContain('PRIVATE KEY');
    }
    // A PKCS#1 RSA key is taken, signing with RS256 by default.
    expect(() => mcpServer({ name: 'svc', url, oauth: { grant: 'client_credentials', clientId: 'c', privateKey: rsa } })).not.toThrow();
  });
});
