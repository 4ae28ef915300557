import { symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { createHarness, definePlugin, isHarnessError, type Sandbox } from '@weir/core';
import { assertPluginConformance, snapshotHarness } from '@weir/core/testing';
import { fsTools } from '@weir/tools-fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

// Sentinels outside the root are checked after every test (useWorkspace).
const ws = useWorkspace();
let base: string;
let root: string;

beforeEach(async () => {
  base = ws.fx.home;
  root = ws.fx.root;
  await ws.fx.file('a.txt', 'a\n');
});

describe('fsTools plugin', () => {
  it('passes the conformance kit, read-only and with write tools', async () => {
    const readOnly = await assertPluginConformance(fsTools({ root }));
    expect(readOnly.plugin).toBe('tools-fs');
    expect([...readOnly.tools].sort()).toEqual(['find_files', 'list_dir', 'read_file', 'search_files']);
    expect(readOnly.examplesRun).toBeGreaterThan(0);

    const writable = await assertPluginConformance(fsTools({ root, write: true }), { cycles: 3 });
    expect([...writable.tools].sort()).toEqual(['edit_file', 'find_files', 'list_dir', 'read_file', 'search_files', 'write_file']);
  });

  it('declares the tiers policies key on', async () => {
    const harness = createHarness();
    await harness.use(fsTools({ root, write: true }));
    const tiers = Object.fromEntries(harness.tools.names().map((name) => [name, harness.tools.get(name)?.tier]));
    expect(tiers).toEqual({ read_file: 'read-only', list_dir: 'read-only', find_files: 'read-only', search_files: 'read-only', write_file: 'write', edit_file: 'write' });
    await harness.close();
  });

  it('provides its validator as the harness sandbox, for other plugins and guards to use', async () => {
    const harness = createHarness();
    const seen: { sandbox?: Sandbox; inGuard?: unknown } = {};
    await harness.use(fsTools({ root }));
    await harness.use(
      definePlugin({
        name: 'policy',
        setup(ctx) {
          seen.sandbox = ctx.sandbox.current;
          ctx.guards.add(async (call, context) => {
            seen.inGuard = await context.sandbox?.resolve(String(call.arguments.path), 'read');
            return undefined;
          });
        },
      }),
    );
    expect(seen.sandbox?.root).toBe(root);
    expect(await seen.sandbox?.resolve('a.txt', 'read')).toEqual({ ok: true, path: path.join(root, 'a.txt'), relativePath: 'a.txt' });
    expect(await seen.sandbox?.resolve('../x', 'write')).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
    expect(await seen.sandbox?.resolve('.', 'list')).toEqual({ ok: true, path: root, relativePath: '.' });
    await harness.executeToolCall({ id: '1', name: 'read_file', arguments: { path: '../a.txt' } });
    expect(seen.inGuard).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_WORKSPACE' });
    await harness.close();
  });

  it('registers the write tools and the protected-path guard only with write: true', async () => {
    const harness = createHarness();
    const before = snapshotHarness(harness);
    const unload = await harness.use(fsTools({ root }));
    expect(harness.tools.has('write_file')).toBe(false);
    expect(snapshotHarness(harness).guards).toEqual(before.guards);
    await unload();
    await harness.use(fsTools({ root, write: true }));
    expect(harness.tools.has('write_file')).toBe(true);
    expect(snapshotHarness(harness).guards.length).toBe(before.guards.length + 1);
    await harness.close();
  });

  it('unloads completely: tools, guard and sandbox', async () => {
    const harness = createHarness();
    const before = snapshotHarness(harness);
    let sandboxAfter: Sandbox | undefined = {} as Sandbox;
    const unload = await harness.use(fsTools({ root, write: true }));
    await unload();
    await harness.use(definePlugin({ name: 'probe', setup: (ctx) => void (sandboxAfter = ctx.sandbox.current) }));
    expect(sandboxAfter).toBeUndefined();
    expect(snapshotHarness(harness).tools).toEqual(before.tools);
    await harness.close();
  });

  it('fails setup, leaving nothing behind, when the root is missing or not a directory', async () => {
    const harness = createHarness();
    const missing = await harness.use(fsTools({ root: path.join(base, 'nope') })).catch((error: unknown) => error);
    expect(isHarnessError(missing, 'PLUGIN_SETUP_FAILED')).toBe(true);
    const file = await harness.use(fsTools({ root: path.join(root, 'a.txt') })).catch((error: unknown) => error);
    expect(isHarnessError(file, 'PLUGIN_SETUP_FAILED')).toBe(true);
    expect(harness.tools.size).toBe(0);
    await harness.close();
  });

  it('refuses a second sandbox: two confinements would be two choke points', async () => {
    const harness = createHarness();
    await harness.use(fsTools({ root }));
    const other = definePlugin({ name: 'other-sandbox', setup: (ctx) => void ctx.sandbox.provide({ root: '/', resolve: async () => ({ ok: false, code: 'X', message: 'x' }) }) });
    const error = await harness.use(other).catch((caught: unknown) => caught);
    expect(isHarnessError(error, 'PLUGIN_SETUP_FAILED')).toBe(true);
    expect(harness.plugins()).toEqual(['tools-fs']);
    await harness.close();
  });

  it('throws TypeError on invalid options, at creation', () => {
    expect(() => fsTools({ root, maxReadBytes: 0 })).toThrow(TypeError);
    expect(() => fsTools({ root, maxEntries: 1.5 })).toThrow(TypeError);
    expect(() => fsTools({ root, write: 'yes' as unknown as boolean })).toThrow(TypeError);
    expect(() => fsTools({ root, protect: ['../outside'] })).toThrow(TypeError);
    expect(() => fsTools({ root, protect: ['/etc'] })).toThrow(TypeError);
    expect(() => fsTools(null as unknown as { root: string })).toThrow(TypeError);
  });

  it('canonicalises a root given through a link once, and accepts both spellings of an absolute path', async () => {
    // The macOS /tmp -> /private/tmp case (docs/reliability.md 1.1 rule 1): asymmetric canonicalisation denies falsely.
    const alias = path.join(root, 'alias');
    await symlink('.', alias);
    const harness = createHarness();
    await harness.use(fsTools({ root: alias }));
    const viaAlias = await harness.executeToolCall({ id: '1', name: 'read_file', arguments: { path: path.join(alias, 'a.txt') } });
    const viaReal = await harness.executeToolCall({ id: '2', name: 'read_file', arguments: { path: path.join(root, 'a.txt') } });
    expect(viaAlias).toMatchObject({ ok: true, content: '     1\ta' });
    expect(viaReal).toMatchObject({ ok: true, content: '     1\ta' });
    await harness.close();
  });
});
