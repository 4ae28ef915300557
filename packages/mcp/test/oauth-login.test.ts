import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type Harness } from '@weir/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { startOAuthWorld, type OAuthWorld } from './oauth/oauth-servers.js';
import { testBrowser } from './oauth/test-browser.js';

let world: OAuthWorld;
let dir: string;
const visits: URL[] = [];
const browser = testBrowser(visits);
const lines: string[] = [];


const recording = () => {
  const record = (level: string) => (...args: unknown[]) => void lines.push(`${level} ${JSON.stringify(args)}`);
  const logger = { trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), fatal: record('fatal'), level: 'trace', child: () => logger };
  return logger as never;
};

async function load(tokenFile: string): Promise<Harness> {
  const harness = createHarness({ logger: recording() });
  await harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, tiers: { '*': 'read-only' }, oauth: { authorize: browser, tokenFile } }));
  return harness;
}
const whoami = (harness: Harness) => harness.executeToolCall({ id: `w${Math.random()}`, name: 'remote__whoami', arguments: {} });

beforeAll(async () => {
  world = await startOAuthWorld();
  dir = mkdtempSync(join(tmpdir(), 'weir-oauth-'));
});
afterAll(async () => {
  await world?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OAuth 2.1 against a loopback authorization server and resource server', () => {
  const tokenFile = () => join(dir, 'home', 'mcp-oauth', 'remote.json');

  it('discovers, registers, logs in with PKCE through the browser, and keeps the login in a 0600 file', async () => {
    const harness = await load(tokenFile());
    try {
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
      expect(visits).toHaveLength(1);
      const authorization = new URL(visits[0]!);
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorization.searchParams.get('resource')).toBe(world.mcpUrl);
      expect(authorization.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(world.log.slice(0, 7)).toEqual(['rs:401', 'resource-metadata', 'metadata', 'register', 'authorize', 'token:authorization_code', 'pkce-ok']);
      expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'home', 'mcp-oauth')).mode & 0o777).toBe(0o700);
      const stored = JSON.parse(readFileSync(tokenFile(), 'utf8')) as { tokens: { access_token: string; refresh_token: string } };
      expect(world.access.get(stored.tokens.access_token)).toEqual({ aud: world.mcpUrl, scope: '', revoked: false });
      // Never logged.
      expect(lines.join('\n')).not.toContain(stored.tokens.access_token);
      expect(lines.join('\n')).not.toContain(stored.tokens.refresh_token);
    } finally {
      await harness.close();
    }
  });

  it('a revoked access token is refreshed without the browser; a revoked refresh token logs in again', async () => {
    let harness = await load(tokenFile());
    try {
      const before = JSON.parse(readFileSync(tokenFile(), 'utf8')) as { tokens: { access_token: string; refresh_token: string } };
      world.access.get(before.tokens.access_token)!.revoked = true;
      world.log.length = 0;
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
      expect(world.log).toContain('token:refresh_token');
      expect(visits).toHaveLength(1);
      const after = JSON.parse(readFileSync(tokenFile(), 'utf8')) as { tokens: { access_token: string } };
      expect(after.tokens.access_token).not.toBe(before.tokens.access_token);
    } finally {
      await harness.close();
    }
    // Everything revoked: the next load sends the person to log in again.
    for (const grant of [...world.access.values(), ...world.refresh.values()]) grant.revoked = true;
    harness = await load(tokenFile());
    try {
      expect(visits).toHaveLength(2);
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
    } finally {
      await harness.close();
    }
  });

  it('the resource server refuses a token minted for another audience', async () => {
    const foreign = world.mint('http://127.0.0.1:1/other');
    const answer = await fetch(world.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${foreign}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(world.log.at(-1)).toBe('rs:401 audience');
  });

  it('the client refuses a server whose metadata names another resource (its token would be good elsewhere)', async () => {
    world.resourceOverride = 'http://127.0.0.1:1/other';
    const seen = visits.length;
    const harness = createHarness();
    try {
      const failed = harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, oauth: { authorize: browser, tokenFile: join(dir, 'other.json') } }));
      await expect(failed).rejects.toMatchObject({ code: 'PLUGIN_SETUP_FAILED' });
      await expect(failed).rejects.toThrow(/does not match/);
      expect(visits).toHaveLength(seen);
    } finally {
      world.resourceOverride = undefined;
      await harness.close();
    }
  });

  it('a login that never comes back fails use() with MCP_AUTH_FAILED, and nothing is left registered', async () => {
    const harness = createHarness();
    const failed = harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, oauth: { authorize: () => undefined, tokenFile: join(dir, 'never.json'), loginTimeoutMs: 200 } }));
    await expect(failed).rejects.toMatchObject({ code: 'PLUGIN_SETUP_FAILED', cause: { code: 'MCP_AUTH_FAILED' } });
    expect(harness.tools.size).toBe(0);
    await harness.close();
  });
});
