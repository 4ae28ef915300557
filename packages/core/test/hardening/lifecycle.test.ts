import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, definePlugin, importPlugin, loadPlugins, HarnessError } from '@weir/core';
import { deferred } from '../support.js';

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A folder with node_modules/<name> whose default export is `source`. */
function packageFolder(name: string, source: string): string {
  const root = mkdtempSync(join(tmpdir(), 'weir-lifecycle-'));
  folders.push(root);
  const dir = join(root, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, type: 'module', exports: './index.js' }));
  writeFileSync(join(dir, 'index.js'), source);
  return root;
}

describe('lifecycle', () => {
  it('close() while a use() is still in its setup ends with no plugin loaded', async () => {
    const harness = createHarness();
    const gate = deferred();
    const loading = harness.use(definePlugin({
      name: 'slow-setup',
      setup: async (ctx) => {
        await gate.promise;
        ctx.guards.add(() => ({ decision: 'deny' }));
      },
    }));
    const closing = harness.close();
    gate.resolve();
    await expect(loading).rejects.toMatchObject({ code: 'HARNESS_CLOSED' });
    await closing;
    expect(harness.plugins()).toEqual([]);
    expect(await harness.executeToolCall({ id: 'a', name: 'none', arguments: {} })).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
  });

  it('an onDispose that never settles cannot hang close() forever: it is bounded and logged', async () => {
    const warnings: unknown[] = [];
    const logger = { debug() {}, info() {}, warn: (...args: unknown[]) => void warnings.push(args), error: (...args: unknown[]) => void warnings.push(args), child() { return logger; } };
    const harness = createHarness({ logger, disposeTimeoutMs: 30 });
    await harness.use(definePlugin({ name: 'stuck', setup: (ctx) => void ctx.onDispose(() => new Promise(() => undefined)) }));
    await expect(harness.close()).rejects.toMatchObject({ code: 'PLUGIN_DISPOSE_FAILED' });
    expect(harness.plugins()).toEqual([]);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('importPlugin wraps a throwing factory in a HarnessError naming the package', async () => {
    const from = packageFolder('weir-plugin-throws', 'export default () => { throw new Error("factory broke"); };');
    const error = await importPlugin('weir-plugin-throws', { from }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('INVALID_PLUGIN');
    expect((error as Error).message).toContain('weir-plugin-throws');
    expect((error as Error).message).toContain('factory broke');
  });

  it("loadPlugins' disposer can be called again after a refused unload, and then unloads everything", async () => {
    const base = packageFolder('weir-plugin-base', 'export default { name: "base", setup() {} };');
    const harness = createHarness();
    const unloadAll = await loadPlugins(['weir-plugin-base'], harness, { from: base });
    const unloadDependent = await harness.use(definePlugin({ name: 'dependent', dependsOn: ['base'], setup: () => undefined }));
    await expect(unloadAll()).rejects.toMatchObject({ code: 'PLUGIN_IN_USE' });
    expect(harness.plugins()).toEqual(['base', 'dependent']);
    await unloadDependent();
    await unloadAll();
    expect(harness.plugins()).toEqual([]);
  });
});
