import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type Harness } from '@weir/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { startOAuthWorld, type OAuthWorld } from './oauth/oauth-servers.js';
import { testBrowser } from './oauth/test-browser.js';

// Logins asked for after initialize: a server that serves initialize to anyone and wants a token
// for the listing, and a tool that needs more scope than the first login got (step-up, 403
// `insufficient_scope`). Found by the conformance suite's auth/scope-step-up and
// auth/scope-retry-limit scenarios.

let world: OAuthWorld;
let dir: string;
const visits: URL[] = [];
const browser = testBrowser(visits);


async function load(file: string): Promise<Harness> {
  const harness = createHarness();
  await harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, tiers: { '*': 'read-only' }, oauth: { authorize: browser, tokenFile: join(dir, file) } }));
  return harness;
}
const whoami = (harness: Harness) => harness.executeToolCall({ id: `w${Math.random()}`, name: 'remote__whoami', arguments: {} });
const scopesOf = (url: URL | undefined) => (url?.searchParams.get('scope') ?? '').split(' ').filter(Boolean);

beforeAll(async () => {
  world = await startOAuthWorld();
  dir = mkdtempSync(join(tmpdir(), 'weir-oauth-step-up-'));
});
afterEach(() => {
  visits.length = 0;
  world.log.length = 0;
  world.openBeforeLogin = false;
  world.toolScope = undefined;
  world.withheldScopes = [];
  world.refuseEveryToken = false;
  world.refreshTokens = true;
});
afterAll(async () => {
  await world?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OAuth logins asked for in the middle of a session', () => {
  it('a server that serves initialize without a token and refuses the listing: use() logs in then, and the tools are listed', async () => {
    world.openBeforeLogin = true;
    const harness = await load('open-initialize.json');
    try {
      expect(visits).toHaveLength(1);
      expect(world.log).toContain('token:authorization_code');
      expect(harness.tools.has('remote__whoami')).toBe(true);
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
    } finally {
      await harness.close();
    }
  });

  it('a loaded server that refuses both the access token and its refresh: the next call sends the person to log in, waits, and is sent again', async () => {
    const harness = await load('revoked.json');
    try {
      expect(visits).toHaveLength(1);
      for (const grant of [...world.access.values(), ...world.refresh.values()]) grant.revoked = true;
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
      expect(world.log).toContain('token:refresh_token');
      expect(visits).toHaveLength(2);
    } finally {
      await harness.close();
    }
  });

  it('a server that refuses even the token just issued: one login, then use() fails with its refusal (the person is not sent again)', async () => {
    world.refuseEveryToken = true;
    world.refreshTokens = false;
    const harness = createHarness();
    const failed = harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, oauth: { authorize: browser, tokenFile: join(dir, 'refused.json') } }));
    await expect(failed).rejects.toMatchObject({ code: 'PLUGIN_SETUP_FAILED', cause: { code: 'MCP_START_FAILED' } });
    await expect(failed).rejects.toThrow(/401|invalid_token/);
    expect(visits).toHaveLength(1);
    await harness.close();
  });

  it('a tool call refused for want of scope (403 insufficient_scope) logs in again for that scope and is sent again', async () => {
    world.toolScope = 'tools:call';
    const harness = await load('step-up.json');
    try {
      expect(visits).toHaveLength(1);
      expect(scopesOf(visits[0])).not.toContain('tools:call');
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
      expect(visits).toHaveLength(2);
      expect(scopesOf(visits[1])).toContain('tools:call');
      expect(world.log.filter((line) => line === 'rs:403 insufficient_scope')).toHaveLength(1);
      // The larger token is kept: the next call is not refused.
      expect(await whoami(harness)).toMatchObject({ ok: true, content: 'logged in' });
      expect(visits).toHaveLength(2);
    } finally {
      await harness.close();
    }
  });

  it('a scope the server never grants: one login for it, the call fails with an error, and the next call does not send the person again', async () => {
    world.toolScope = 'tools:call';
    world.withheldScopes = ['tools:call'];
    const harness = await load('never-granted.json');
    try {
      expect(visits).toHaveLength(1);
      const first = await whoami(harness);
      expect(first.ok).toBe(false);
      expect(first.content).toMatch(/insufficient_scope/);
      expect(visits).toHaveLength(2);
      expect(await whoami(harness)).toMatchObject({ ok: false });
      expect(visits).toHaveLength(2);
    } finally {
      await harness.close();
    }
  });

  it('closing the harness while a step-up login waits for the person ends the login: the call fails, and the loopback listener is gone', async () => {
    world.toolScope = 'tools:call';
    const shown: URL[] = [];
    // The first login is answered; the second (the step-up) is shown and never comes back.
    const authorize = (url: URL) => (shown.push(url) === 1 ? browser(url) : undefined);
    const harness = createHarness();
    await harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, tiers: { '*': 'read-only' }, oauth: { authorize, tokenFile: join(dir, 'abandoned.json'), loginTimeoutMs: 600_000 } }));
    const call = whoami(harness);
    await expect.poll(() => shown.length).toBe(2);
    await harness.close();
    expect(await call).toMatchObject({ ok: false });
    const redirect = new URL(shown[1]!.searchParams.get('redirect_uri')!);
    await expect(fetch(redirect)).rejects.toThrow();
  });
});
