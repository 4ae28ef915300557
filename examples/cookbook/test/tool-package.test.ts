import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, HarnessError, importPlugin, loadPlugins } from '@weir/core';
import { assertPluginConformance, diffSnapshots, snapshotHarness } from '@weir/core/testing';
import helloTools from 'weir-tool-hello';

// The cookbook package depends on weir-tool-hello, so the name resolves from here, as from any app.
const cookbookDir = fileURLToPath(new URL('..', import.meta.url));
// Under vitest the packages resolve to their TypeScript sources, as `tsx --conditions=@weir/source` does.
const conditions = ['@weir/source', 'node', 'import'];

const apps: string[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => rm(app, { recursive: true, force: true })));
});

/** A real package on disk, in the node_modules of a throwaway app folder. */
async function fakePackage(name: string, source: string): Promise<string> {
  const app = await mkdtemp(join(tmpdir(), 'weir-app-'));
  apps.push(app);
  const dir = join(app, 'node_modules', name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', exports: './index.js' }));
  await writeFile(join(dir, 'index.js'), source);
  return app;
}

describe('tools as npm packages', () => {
  it('loads a plugin package outside packages/ by name and unloads back to the exact state', async () => {
    const harness = createHarness();
    const before = snapshotHarness(harness);
    const unload = await loadPlugins(['weir-tool-hello'], harness, { from: cookbookDir, conditions });
    expect(harness.plugins()).toEqual(['hello']);
    expect(await harness.executeToolCall({ id: 'g1', name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ ok: true, content: 'Hello, Ada!' });
    await unload();
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
  });

  it('passes options to the factory with importPlugin', async () => {
    const harness = createHarness();
    await harness.use(await importPlugin('weir-tool-hello', { from: cookbookDir, conditions, options: { greeting: 'Hej' } }));
    expect(await harness.executeToolCall({ id: 'g1', name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ content: 'Hej, Ada!' });
  });

  it('passes the conformance kit, examples included', async () => {
    expect(await assertPluginConformance(helloTools())).toEqual({ plugin: 'hello', tools: ['greet'], examplesRun: 2 });
  });

  it('fails clearly, naming the package, when it is missing', async () => {
    const error = (await importPlugin('weir-tool-does-not-exist', { from: cookbookDir }).catch((caught: unknown) => caught)) as HarnessError;
    expect(error).toBeInstanceOf(HarnessError);
    expect(error.code).toBe('PLUGIN_NOT_FOUND');
    expect(error.message).toContain('"weir-tool-does-not-exist"');
  });

  it('names a missing plugin file as a file, never suggesting npm install of a path', async () => {
    const harness = createHarness();
    const error = (await loadPlugins(['./no-such-plugin.mjs'], harness, { from: cookbookDir }).catch((caught: unknown) => caught)) as HarnessError;
    expect(error.code).toBe('PLUGIN_NOT_FOUND');
    expect(error.message).toBe(`The plugin file "./no-such-plugin.mjs" does not exist (looked for ${join(cookbookDir, 'no-such-plugin.mjs')}). Check the path: a relative one is taken from ${cookbookDir}${cookbookDir.endsWith('/') ? '' : '/'}.`);
    expect(error.message).not.toContain('npm install');
  });

  it('loads a plugin from a file path', async () => {
    const app = await fakePackage('weir-tool-file', 'export default { name: "file-plugin", setup() {} };\n');
    expect((await importPlugin('./node_modules/weir-tool-file/index.js', { from: app })).name).toBe('file-plugin');
  });

  it('fails clearly, naming the package, when its default export is not a plugin', async () => {
    const app = await fakePackage('weir-tool-broken', 'export default { hello: "world" };\n');
    const error = (await importPlugin('weir-tool-broken', { from: app }).catch((caught: unknown) => caught)) as HarnessError;
    expect(error.code).toBe('INVALID_PLUGIN');
    expect(error.message).toContain('"weir-tool-broken"');
  });

  it('accepts a package whose default export is a plugin object, and a factory that is async', async () => {
    const objectApp = await fakePackage('weir-tool-object', 'export default { name: "object-plugin", setup() {} };\n');
    expect((await importPlugin('weir-tool-object', { from: objectApp })).name).toBe('object-plugin');
    const asyncApp = await fakePackage('weir-tool-async', 'export default async (options) => ({ name: "async-" + options.suffix, setup() {} });\n');
    expect((await importPlugin('weir-tool-async', { from: asyncApp, options: { suffix: 'x' } })).name).toBe('async-x');
  });

  it('unloads what it loaded when a later package in the list fails', async () => {
    const harness = createHarness();
    const before = snapshotHarness(harness);
    await expect(loadPlugins(['weir-tool-hello', 'weir-tool-does-not-exist'], harness, { from: cookbookDir, conditions })).rejects.toMatchObject({ code: 'PLUGIN_NOT_FOUND' });
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
  });
});
