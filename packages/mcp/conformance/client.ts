// The weir client for the conformance suite's client scenarios: the suite appends the server URL
// and names the scenario in MCP_CONFORMANCE_SCENARIO. It is mcpServer({ url }) and an approver that
// accepts what it is shown (the scenario's server asks to "accept with defaults": the approver is
// shown the form filled with its schema's defaults, and accepting sends them).
// For the `auth/*` scenarios it is mcpServer({ url, oauth }) with the token store in a weir home of
// its own (a temporary folder, removed at the end), and `oauth.authorize` standing in for the
// person's browser: the suite's authorization server approves at once, so the "browser" visits the
// authorization URL and follows its redirect to weir's loopback listener, as a browser would.
// A scenario's pre-registered client (MCP_CONFORMANCE_CONTEXT: client_id, client_secret) is given as
// oauth.clientId and oauth.clientSecret. auth/basic-cimd is given a client ID metadata document URL
// (its authorization server takes it without fetching it); the others run weir's default, dynamic
// registration.
// auth/client-credentials-basic and auth/client-credentials-jwt are for a client with no person: they
// get oauth.grant 'client_credentials' with the context's client_id and its client_secret, or its
// private key (PEM) and signing algorithm (private_key_jwt); no browser is involved.
// Run: conformance client --command "tsx --conditions=@weir/source conformance/client.ts" --scenario initialize
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, definePlugin } from '@weir/core';
import { mcpServer, type McpOAuthOptions } from '../src/index.js';

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const auth = scenario.startsWith('auth/');
const home = auth ? mkdtempSync(join(tmpdir(), 'weir-conformance-')) : undefined;
if (home !== undefined) process.env.WEIR_HOME = home;

/** The browser: visits the authorization URL and follows the redirects back to the loopback listener. */
async function browse(authorizationUrl: URL): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: 'follow' });
  await response.body?.cancel();
}

/** The scenario's context: a pre-registered client's credentials, when it has one. */
function preRegistered(): Pick<McpOAuthOptions, 'clientId' | 'clientSecret'> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: unknown; client_secret?: unknown };
  if (typeof context.client_id !== 'string') return {};
  return { clientId: context.client_id, ...(typeof context.client_secret === 'string' ? { clientSecret: context.client_secret } : {}) };
}

/** The scenario's client for the client credentials grant: a secret, or a private key and its algorithm. */
function clientCredentials(): McpOAuthOptions {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string; private_key_pem?: string; signing_algorithm?: string };
  const client = { grant: 'client_credentials', clientId: context.client_id ?? '' } as const;
  if (context.private_key_pem !== undefined) return { ...client, privateKey: context.private_key_pem, ...(context.signing_algorithm === undefined ? {} : { algorithm: context.signing_algorithm as McpOAuthOptions['algorithm'] }) };
  return { ...client, clientSecret: context.client_secret ?? '' };
}

const headless = scenario === 'auth/client-credentials-basic' || scenario === 'auth/client-credentials-jwt';
const oauth: McpOAuthOptions | undefined = headless
  ? clientCredentials()
  : auth
  ? {
      authorize: (at) => void browse(at).catch((error: unknown) => process.stderr.write(`browser: ${String(error)}\n`)),
      loginTimeoutMs: 20_000,
      ...(scenario === 'auth/basic-cimd' ? { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' } : {}),
      ...preRegistered(),
    }
  : undefined;
const harness = createHarness();
let failed = false;
try {
  await harness.use(definePlugin({ name: 'conformance-approver', setup: (ctx) => void ctx.approval.setResponder(() => ({ decision: 'allow' })) }));
  await harness.use(mcpServer({ name: 'conformance', url, tiers: { '*': 'read-only' }, ...(oauth === undefined ? {} : { oauth }) }));
  const calls: Record<string, { name: string; arguments: Record<string, unknown> }> = {
    tools_call: { name: 'conformance__add_numbers', arguments: { a: 5, b: 3 } },
    'sse-retry': { name: 'conformance__test_reconnection', arguments: {} },
    'elicitation-sep1034-client-defaults': { name: 'conformance__test_client_elicitation_defaults', arguments: {} },
  };
  // The auth scenarios' server has one tool, `test-tool`; some ask for more scope to call it.
  const call = auth ? { name: 'conformance__test-tool', arguments: {} } : calls[scenario];
  if (call !== undefined) {
    const result = await harness.executeToolCall({ id: 'conformance-1', ...call });
    process.stdout.write(`${result.ok ? 'ok' : 'error'}: ${result.content}\n`);
    failed = !result.ok;
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  failed = true;
} finally {
  await harness.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
