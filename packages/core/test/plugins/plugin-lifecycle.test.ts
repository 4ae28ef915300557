import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createHarness, definePlugin, HarnessError, type Harness, type Plugin, type PluginContext } from '@weir/core';
import { diffSnapshots, snapshotHarness } from '@weir/core/testing';
import { deferred, echoTool } from '../support.js';

const codeOf = async (promise: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return error instanceof HarnessError ? error.code : `not a HarnessError: ${String(error)}`;
  }
  return 'did not throw';
};

/** A plugin that touches every kind of registration a plugin can make. */
function everythingPlugin(name = 'everything', extra?: (ctx: PluginContext) => void | Promise<void>): Plugin {
  return definePlugin({
    name,
    async setup(ctx) {
      ctx.tools.register(echoTool({ name: `${name}_echo` }).tool);
      ctx.hooks.prepareExecution.tap(() => undefined);
      ctx.hooks.execute.tapPromise(async () => undefined);
      ctx.hooks.createSuccessResult.tap(() => undefined);
      ctx.hooks.postExecute.tapAsync((_result, _context, callback) => callback(null, undefined));
      ctx.hooks.finalizeContent.tap(() => undefined);
      ctx.hooks.result.tap(() => undefined);
      ctx.guards.add(() => ({ decision: 'allow' }));
      ctx.approval.setResponder(() => ({ decision: 'allow' }));
      ctx.sandbox.provide({ root: '/workspace', resolve: async (path) => ({ ok: true, path, relativePath: path }) });
      ctx.onDispose(() => undefined);
      await extra?.(ctx);
    },
  });
}

async function baseHarness(): Promise<Harness> {
  const harness = createHarness();
  harness.tools.register(echoTool().tool);
  harness.hooks.postExecute.tap('host-observer', () => undefined);
  await harness.use(definePlugin({ name: 'host-policy', setup: (ctx) => void ctx.guards.add(() => undefined) }));
  return harness;
}

describe('plugins: loading and unloading', () => {
  it('undoes every registration on unload: the harness state is exactly what it was before', async () => {
    const harness = await baseHarness();
    const before = snapshotHarness(harness);
    const unload = await harness.use(everythingPlugin());
    const loaded = snapshotHarness(harness);
    expect(diffSnapshots(before, loaded).length).toBeGreaterThanOrEqual(9);
    await unload();
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
    await unload();
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
  });

  it('runs disposers in reverse order of registration', async () => {
    const order: string[] = [];
    const harness = createHarness();
    const unload = await harness.use(
      definePlugin({
        name: 'ordered',
        setup(ctx) {
          ctx.onDispose(() => void order.push('first'));
          ctx.onDispose(async () => {
            await new Promise((resolve) => setTimeout(resolve, 2));
            order.push('second (async, awaited)');
          });
          ctx.onDispose(() => void order.push('third'));
        },
      }),
    );
    await unload();
    expect(order).toEqual(['third', 'second (async, awaited)', 'first']);
  });

  it('returns a disposer from every registration, which undoes just that one', async () => {
    const harness = createHarness();
    let ctxRef: PluginContext | undefined;
    await harness.use(definePlugin({ name: 'p', setup: (ctx) => void (ctxRef = ctx) }));
    const ctx = ctxRef!;
    const before = snapshotHarness(harness);
    const disposers = [
      ctx.tools.register(echoTool().tool),
      ctx.hooks.postExecute.tap(() => undefined),
      ctx.guards.add(() => undefined),
      ctx.approval.setResponder(() => ({ decision: 'deny' })),
      ctx.sandbox.provide({ root: '/', resolve: async () => ({ ok: false, code: 'X', message: 'x' }) }),
    ];
    expect(diffSnapshots(before, snapshotHarness(harness))).toHaveLength(5);
    for (const dispose of disposers) dispose();
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
  });

  it('never runs a removed tap again, even in a call already under way', async () => {
    const { tool } = echoTool({ execute: async (args: { text: string }) => (await bodyGate.promise, args.text) });
    const bodyGate = deferred();
    const ran: string[] = [];
    const harness = createHarness();
    harness.tools.register(tool);
    const unload = await harness.use(definePlugin({ name: 'observer', setup: (ctx) => void ctx.hooks.postExecute.tap(() => void ran.push('post')) }));
    const pending = harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    await new Promise((resolve) => setImmediate(resolve));
    await unload();
    bodyGate.resolve();
    expect(await pending).toMatchObject({ ok: true });
    expect(ran).toEqual([]);
  });

  it('lets a call already running finish with the tool it started with; a later call gets TOOL_NOT_FOUND', async () => {
    const gate = deferred();
    const tools = definePlugin({
      name: 'tools',
      setup: (ctx) => void ctx.tools.register(echoTool({ execute: async (args: { text: string }) => (await gate.promise, `done: ${args.text}`) }).tool),
    });
    const harness = createHarness();
    const unload = await harness.use(tools);
    const running = harness.executeToolCall({ id: 'c1', name: 'echo', arguments: { text: 'in flight' } });
    await new Promise((resolve) => setImmediate(resolve));
    await unload();
    const after = await harness.executeToolCall({ id: 'c2', name: 'echo', arguments: { text: 'too late' } });
    gate.resolve();
    expect(await running).toMatchObject({ ok: true, content: 'done: in flight' });
    expect(after).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
  });

  it.each([
    ['synchronously', () => { throw new Error('bad config.'); }],
    ['asynchronously', async () => { await Promise.resolve(); throw new Error('bad config'); }],
  ])('leaves nothing behind when setup throws %s, and fails with PLUGIN_SETUP_FAILED naming the plugin', async (_label, fail) => {
    const harness = await baseHarness();
    const before = snapshotHarness(harness);
    const error = await harness.use(everythingPlugin('half-done', fail)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('PLUGIN_SETUP_FAILED');
    expect((error as HarnessError).message).toContain('"half-done"');
    // One period after the cause's message, whether it ended with one or not.
    expect((error as HarnessError).message).toContain('bad config. Nothing it registered was kept.');
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
    // The name is free again: a fixed plugin of the same name loads.
    await expect(harness.use(everythingPlugin('half-done'))).resolves.toBeTypeOf('function');
  });

  it('refuses a second plugin with a name already loaded', async () => {
    const harness = createHarness();
    await harness.use(everythingPlugin('same'));
    expect(await codeOf(harness.use(definePlugin({ name: 'same', setup: () => undefined })))).toBe('PLUGIN_ALREADY_LOADED');
  });

  it('refuses a plugin whose dependency is not loaded, naming it', async () => {
    const harness = createHarness();
    const error = (await harness.use(definePlugin({ name: 'needs-fs', dependsOn: ['tools-fs'], setup: () => undefined })).catch((caught: unknown) => caught)) as HarnessError;
    expect(error.code).toBe('PLUGIN_DEPENDENCY_MISSING');
    expect(error.message).toContain('"tools-fs"');
  });

  it('refuses to unload a plugin another loaded plugin depends on, until that one unloads', async () => {
    const harness = createHarness();
    const unloadBase = await harness.use(definePlugin({ name: 'base', setup: () => undefined }));
    const unloadDependent = await harness.use(definePlugin({ name: 'dependent', dependsOn: ['base'], setup: () => undefined }));
    const error = await unloadBase().catch((caught: HarnessError) => caught);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('PLUGIN_IN_USE');
    expect((error as HarnessError).message).toContain('"dependent"');
    expect(harness.plugins()).toEqual(['base', 'dependent']);
    await unloadDependent();
    await unloadBase();
    expect(harness.plugins()).toEqual([]);
  });

  it('refuses registrations from a plugin after it unloaded', async () => {
    const harness = createHarness();
    let ctxRef: PluginContext | undefined;
    const unload = await harness.use(definePlugin({ name: 'late', setup: (ctx) => void (ctxRef = ctx) }));
    await unload();
    expect(await codeOf(() => ctxRef!.tools.register(echoTool().tool))).toBe('PLUGIN_UNLOADED');
    expect(await codeOf(() => ctxRef!.hooks.result.tap(() => undefined))).toBe('PLUGIN_UNLOADED');
    expect(harness.tools.size).toBe(0);
  });

  it('refuses a second approval responder or sandbox with SLOT_TAKEN', async () => {
    const harness = createHarness();
    await harness.use(everythingPlugin('first'));
    expect(await codeOf(harness.use(definePlugin({ name: 'approver-2', setup: (ctx) => void ctx.approval.setResponder(() => ({ decision: 'allow' })) })))).toBe('PLUGIN_SETUP_FAILED');
    let ctxRef: PluginContext | undefined;
    await harness.use(definePlugin({ name: 'probe', setup: (ctx) => void (ctxRef = ctx) }));
    expect(await codeOf(() => ctxRef!.approval.setResponder(() => ({ decision: 'allow' })))).toBe('SLOT_TAKEN');
    expect(await codeOf(() => ctxRef!.sandbox.provide({ root: '/', resolve: async () => ({ ok: false, code: 'X', message: '' }) }))).toBe('SLOT_TAKEN');
  });

  it('closes by unloading every plugin in reverse order of loading, also through Symbol.asyncDispose', async () => {
    for (const close of [(harness: Harness) => harness.close(), (harness: Harness) => harness[Symbol.asyncDispose]()]) {
      const order: string[] = [];
      const harness = createHarness();
      for (const name of ['a', 'b', 'c']) await harness.use(definePlugin({ name, setup: (ctx) => void ctx.onDispose(() => void order.push(name)) }));
      await close(harness);
      expect(order).toEqual(['c', 'b', 'a']);
      expect(harness.plugins()).toEqual([]);
      expect(await codeOf(harness.use(definePlugin({ name: 'after-close', setup: () => undefined })))).toBe('HARNESS_CLOSED');
    }
  });

  it('gives each plugin a pino child logger named after it', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const harness = createHarness({ logger: pino({ level: 'info' }, sink) as never });
    await harness.use(definePlugin({ name: 'chatty', setup: (ctx) => ctx.logger.info('hello from setup') }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(lines[0]!)).toMatchObject({ plugin: 'chatty', msg: 'hello from setup' });
  });

  it('refuses things that are not plugins with INVALID_PLUGIN', async () => {
    const harness = createHarness();
    expect(await codeOf(harness.use({ name: 'x' } as never))).toBe('INVALID_PLUGIN');
    expect(await codeOf(() => definePlugin({ name: '', setup: () => undefined }))).toBe('INVALID_PLUGIN');
  });
});
