import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assertPluginConformance } from '@weir/core/testing';
import { main as auditLog } from '../audit-log.js';
import { main as permissionGate, permissionGate as gatePlugin } from '../permission-gate.js';
import { main as redactSecrets, redact, redactSecrets as redactPlugin } from '../redact-secrets.js';
import { main as sandbox } from '../sandbox.js';
import { main as timeoutRetry, retryPolicy } from '../timeout-retry.js';

describe('the extension cookbook', () => {
  it('permission gate: the guard denies unlisted commands, the tap blocks forced ones', async () => {
    expect(await permissionGate()).toEqual([
      'ls -la -> ok: would run "ls -la"',
      'rm -rf build -> DENIED: Policy "permission-gate" denied this run call: only ls, git may run, not rm',
      'git push --force -> BLOCKED: Blocked by "permission-gate": forced operations need a person at the keyboard',
    ]);
  });

  it('sandbox: the tool reads through exec.sandbox, which refuses paths outside the folder', async () => {
    expect(await sandbox()).toEqual([
      'notes.txt -> ok: inside the sandbox',
      '../../etc/hostname -> PATH_OUTSIDE_WORKSPACE: ../../etc/hostname is outside the workspace',
      'missing.txt -> NOT_FOUND: missing.txt does not exist in the workspace',
    ]);
  });

  it('timeout and retry: hung attempts time out and are retried until one answers', async () => {
    expect(await timeoutRetry()).toEqual([
      'fetch_quote -> ok: "Simplicity is prerequisite for reliability." (answered on attempt 3)',
      'service requests: 3',
    ]);
  });

  it('redaction: secrets never reach the model', async () => {
    const [line] = await redactSecrets();
    expect(line).toBe('read_env -> ok: OPENAI_API_KEY=[REDACTED]\nAWS_KEY=[REDACTED]\ndb password=[REDACTED]\nDEBUG=true');
    expect(redact('no secrets here')).toBe('no secrets here');
  });

  it('audit log: one line per call, in call order, failures included', async () => {
    expect((await auditLog()).map((line) => JSON.parse(line) as unknown)).toEqual([
      { callId: 'a', tool: 'square', ok: true, attempts: 1 },
      { callId: 'b', tool: 'square', ok: false, code: 'INVALID_ARGUMENTS', attempts: 0 },
      { callId: 'c', tool: 'cube', ok: false, code: 'TOOL_NOT_FOUND', attempts: 0 },
      { callId: 'd', tool: 'square', ok: true, attempts: 1 },
    ]);
  });

  it('every recipe plugin unloads back to the exact harness state', async () => {
    for (const plugin of [gatePlugin(['ls']), redactPlugin, retryPolicy({ tools: ['x'], attemptTimeoutMs: 10, retries: 1 })]) {
      await expect(assertPluginConformance(plugin)).resolves.toMatchObject({ plugin: plugin.name });
    }
  });

  it("docs/cookbook.md shows each recipe's code as it is", () => {
    const docs = readFileSync(fileURLToPath(new URL('../../../docs/cookbook.md', import.meta.url)), 'utf8');
    for (const recipe of ['permission-gate', 'sandbox', 'timeout-retry', 'redact-secrets', 'audit-log']) {
      const code = readFileSync(fileURLToPath(new URL(`../${recipe}.ts`, import.meta.url)), 'utf8');
      expect(docs, `docs/cookbook.md is missing the current code of ${recipe}.ts`).toContain(code.trim());
    }
  });
});
