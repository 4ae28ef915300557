import { describe, expect, it } from 'vitest';
import { createHarness, definePlugin } from '@weir/core';
import { diffSnapshots, snapshotHarness } from '@weir/core/testing';
import { echoTool } from '../support.js';

describe('hot reload', () => {
  it('loads and unloads the same plugin 10,000 times; the tap lists and the registry stay flat', async () => {
    const { tool } = echoTool();
    const plugin = definePlugin({
      name: 'reloaded',
      setup(ctx) {
        ctx.tools.register(tool);
        ctx.hooks.prepareExecution.tap(() => undefined);
        ctx.hooks.postExecute.tapPromise(async () => undefined);
        ctx.hooks.result.tap(() => undefined);
        ctx.guards.add(() => undefined);
      },
    });
    const harness = createHarness();
    const before = snapshotHarness(harness);
    for (let i = 0; i < 10_000; i += 1) {
      const unload = await harness.use(plugin);
      if (i % 2_500 === 0) {
        // Still working while loaded, mid-way through the reloads.
        expect(await harness.executeToolCall({ id: `c${i}`, name: 'echo', arguments: { text: 'alive' } })).toMatchObject({ ok: true });
      }
      await unload();
    }
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
    for (const taps of Object.values(snapshotHarness(harness).taps)) expect(taps).toEqual([]);
    expect(harness.tools.size).toBe(0);
    // 10,000 cycles take a few seconds; on a loaded CI machine, several times that.
  }, 60_000);
});
