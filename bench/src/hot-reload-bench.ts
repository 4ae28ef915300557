import { createHarness, definePlugin } from '@weir/core';
import { echoTool } from './echo-tool.js';
import { printTable } from './measure.js';

const CYCLES = 10_000;

/** Live heap after a full collection (needs `--expose-gc`; without it the figure is only indicative). */
function liveHeap(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * Loads and unloads one plugin (a tool with a schema, taps on three stages, a guard) 10,000
 * times into one harness and reports the live heap before, midway and after: hot reload must not
 * grow it. A fresh tool definition per load, so the shared Ajv's schema cache is exercised too.
 */
export async function hotReloadBench(): Promise<void> {
  const harness = createHarness();
  const plugin = definePlugin({
    name: 'reloaded',
    setup(ctx) {
      ctx.tools.register(echoTool());
      ctx.hooks.prepareExecution.tap(() => undefined);
      ctx.hooks.postExecute.tapPromise(async () => undefined);
      ctx.hooks.result.tap(() => undefined);
      ctx.guards.add(() => undefined);
    },
  });
  const cycle = async () => {
    const unload = await harness.use(plugin);
    await unload();
  };
  for (let i = 0; i < 1_000; i += 1) await cycle();
  const before = liveHeap();
  const started = process.hrtime.bigint();
  for (let i = 0; i < CYCLES / 2; i += 1) await cycle();
  const midway = liveHeap();
  for (let i = 0; i < CYCLES / 2; i += 1) await cycle();
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  const after = liveHeap();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`\nHot reload: load and unload one plugin ${CYCLES.toLocaleString('en')} times${globalThis.gc ? '' : ' (no --expose-gc: heap figures indicative)'}`);
  printTable(
    ['figure', 'value'],
    [
      ['µs per load + unload', (elapsedUs / CYCLES).toFixed(1)],
      ['live heap before', kb(before)],
      ['live heap after 5,000 cycles', `${kb(midway)} (${midway - before >= 0 ? '+' : ''}${kb(midway - before)})`],
      ['live heap after 10,000 cycles', `${kb(after)} (${after - before >= 0 ? '+' : ''}${kb(after - before)})`],
      ['growth per cycle', `${((after - before) / CYCLES).toFixed(1)} B`],
    ],
  );
}
