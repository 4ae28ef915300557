import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness } from '@weir/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer, type McpOAuthOptions } from '../src/index.js';
import { startOAuthWorld, type OAuthWorld } from './oauth/oauth-servers.js';
import { testBrowser } from './oauth/test-browser.js';

// Clients that are not registered dynamically: one registered beforehand (for an authorization
// server without dynamic registration: the conformance suite's auth/pre-registration), and one
// named by a client ID metadata document (auth/basic-cimd).

let world: OAuthWorld;
let dir: string;
const visits: URL[] = [];
const browser = testBrowser(visits);


async function whoamiWith(oauth: Omit<McpOAuthOptions, 'authorize'>, file: string) {
  const harness = createHarness();
  try {
    await harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, tiers: { '*': 'read-only' }, oauth: { authorize: browser, tokenFile: join(dir, file), ...oauth } }));
    return await harness.executeToolCall({ id: 'w1', name: 'remote__whoami', arguments: {} });
  } finally {
    await harness.close();
  }
}

beforeAll(async () => {
  world = await startOAuthWorld();
  dir = mkdtempSync(join(tmpdir(), 'weir-oauth-client-'));
});
afterEach(() => {
  visits.length = 0;
  world.log.length = 0;
  world.dynamicRegistration = true;
  world.clientIdDocuments = false;
});
afterAll(async () => {
  await world?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OAuth clients that are not registered dynamically', () => {
  it('a pre-registered confidential client: no registration, the code exchanged with its secret (HTTP Basic), the secret never written to the token file', async () => {
    world.dynamicRegistration = false;
    world.preRegister('weir-pre', 's3cret-value');
    expect(await whoamiWith({ clientId: 'weir-pre', clientSecret: 's3cret-value' }, 'pre.json')).toMatchObject({ ok: true, content: 'logged in' });
    expect(world.log).not.toContain('register');
    expect(world.log).toContain('client-authenticated');
    expect(visits[0]?.searchParams.get('client_id')).toBe('weir-pre');
    expect(readFileSync(join(dir, 'pre.json'), 'utf8')).not.toContain('s3cret-value');
  });

  it('without a client of its own, a server that offers no registration fails use() with MCP_AUTH_FAILED naming why', async () => {
    world.dynamicRegistration = false;
    const harness = createHarness();
    const failed = harness.use(mcpServer({ name: 'remote', url: world.mcpUrl, oauth: { authorize: browser, tokenFile: join(dir, 'none.json') } }));
    await expect(failed).rejects.toMatchObject({ cause: { code: 'MCP_AUTH_FAILED' } });
    await expect(failed).rejects.toThrow(/dynamic client registration/);
    await harness.close();
  });

  it('a client ID metadata document: its URL is the client ID where the server supports them, and no registration is made', async () => {
    world.clientIdDocuments = true;
    const document = 'https://weir.example/oauth/client.json';
    expect(await whoamiWith({ clientMetadataUrl: document }, 'cimd.json')).toMatchObject({ ok: true, content: 'logged in' });
    expect(visits[0]?.searchParams.get('client_id')).toBe(document);
    expect(world.log).toContain('client-id-document');
    expect(world.log).not.toContain('register');
  });

  it('a client ID metadata document where the server does not support them: weir registers as usual', async () => {
    expect(await whoamiWith({ clientMetadataUrl: 'https://weir.example/oauth/client.json' }, 'cimd-unsupported.json')).toMatchObject({ ok: true, content: 'logged in' });
    expect(world.log).toContain('register');
  });

  it('refuses a clientSecret without a clientId, and a client metadata URL that is not https with a path', () => {
    expect(() => mcpServer({ name: 'remote', url: world.mcpUrl, oauth: { clientSecret: 'x' } })).toThrow(/clientSecret needs oauth.clientId/);
    expect(() => mcpServer({ name: 'remote', url: world.mcpUrl, oauth: { clientMetadataUrl: 'http://weir.example/client.json' } })).toThrow(/https URL with a path/);
  });
});
