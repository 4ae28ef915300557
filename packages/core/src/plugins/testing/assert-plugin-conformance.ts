import { createHook } from 'node:async_hooks';
import type { Plugin } from '../define-plugin.js';
import { isPlugin } from '../define-plugin.js';
import { createHarness, type Harness, type HarnessOptions } from '../../harness.js';
import type { RegisteredTool } from '../../tools/tool-registry.js';
import { diffSnapshots, snapshotHarness } from './harness-snapshot.js';

export interface ConformanceOptions {
  /** Plugins to load first (the plugin's `dependsOn`). */
  readonly dependencies?: readonly Plugin[];
  readonly harnessOptions?: HarnessOptions;
  /** Run each tool's declared `examples` (default true). */
  readonly runExamples?: boolean;
  /** Loads and unloads this many times, checking the state each time (default 2). */
  readonly cycles?: number;
}

export interface ConformanceReport {
  readonly plugin: string;
  readonly tools: readonly string[];
  readonly examplesRun: number;
}

/** Thrown by `assertPluginConformance`, listing every problem found. */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
  constructor(readonly plugin: string, readonly problems: readonly string[]) {
    super(`Plugin "${plugin}" is not conformant:\n- ${problems.join('\n- ')}`);
  }
}

/**
 * The conformance kit for plugin authors: loads `plugin` into a fresh harness, checks its tools'
 * names, descriptions and schemas (as the model will see them), runs their declared examples,
 * unloads it, and checks the harness is exactly as before, over several load cycles.
 * Throws `ConformanceError` listing every problem; resolves to a short report otherwise.
 * Works with any test framework.
 */
export async function assertPluginConformance(plugin: Plugin, options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const name = isPlugin(plugin) ? plugin.name : '(not a plugin)';
  if (!isPlugin(plugin)) throw new ConformanceError(name, ['the value is not a plugin { name, setup(ctx) }']);
  const problems: string[] = [];
  const harness = createHarness(options.harnessOptions);
  for (const dependency of options.dependencies ?? []) await harness.use(dependency);

  let tools: string[] = [];
  let examplesRun = 0;
  const cycles = options.cycles ?? 2;
  for (let cycle = 1; cycle <= cycles; cycle += 1) {
    const before = snapshotHarness(harness);
    const resources = watchResources();
    const unload = await harness.use(plugin);
    tools = harness.tools.names().filter((toolName) => !before.tools.some(([existing]) => existing === toolName));
    if (cycle === 1) {
      for (const toolName of tools) problems.push(...checkTool(harness.tools.get(toolName)!));
      problems.push(...checkModelView(harness));
      if (options.runExamples ?? true) examplesRun = await runExamples(harness, tools, problems);
    }
    await unload();
    problems.push(...(await resources.leftAlive(cycle)));
    const differences = diffSnapshots(before, snapshotHarness(harness));
    if (differences.length > 0) problems.push(`after unload (cycle ${cycle}) the harness differs from before: ${differences.join('; ')}`);
  }
  await harness.close();
  if (problems.length > 0) throw new ConformanceError(name, problems);
  return { plugin: name, tools, examplesRun };
}

function checkTool(tool: RegisteredTool): string[] {
  const problems: string[] = [];
  const where = `tool "${tool.name}"`;
  if (tool.description.trim().length < 10) problems.push(`${where}: the description is too short to tell a model when to call it`);
  if (tool.definition.tier === undefined) problems.push(`${where}: declare a tier ('read-only', 'write' or 'dangerous'); undeclared tools are treated as dangerous`);
  const properties = (tool.jsonSchema as { properties?: Record<string, { description?: unknown }> }).properties ?? {};
  for (const [property, schema] of Object.entries(properties)) {
    if (typeof schema?.description !== 'string' || schema.description.trim() === '') problems.push(`${where}: parameter "${property}" has no description`);
  }
  return problems;
}

function checkModelView(harness: Harness): string[] {
  const problems: string[] = [];
  for (const schema of harness.tools.schemas()) {
    const keys = Object.keys(schema).sort().join(',');
    if (keys !== 'description,name,parameters') problems.push(`model view of "${schema.name}" has keys ${keys}`);
    let roundTrip: unknown;
    try {
      roundTrip = JSON.parse(JSON.stringify(schema.parameters));
    } catch (error) {
      problems.push(`tool "${schema.name}": parameters are not JSON (${(error as Error).message})`);
      continue;
    }
    if (JSON.stringify(roundTrip) !== JSON.stringify(schema.parameters)) problems.push(`tool "${schema.name}": parameters do not survive a JSON round trip`);
  }
  return problems;
}

async function runExamples(harness: Harness, tools: readonly string[], problems: string[]): Promise<number> {
  let run = 0;
  for (const toolName of tools) {
    const examples = harness.tools.get(toolName)?.examples ?? [];
    for (const [index, example] of examples.entries()) {
      run += 1;
      const result = await harness.executeToolCall({ id: `conformance-${toolName}-${index}`, name: toolName, arguments: example.arguments });
      const expected = example.expect ?? { ok: true };
      if (expected.ok && !result.ok) problems.push(`tool "${toolName}" example ${index} failed: ${result.error.code}: ${result.error.message}`);
      if (!expected.ok && (result.ok || result.error.code !== expected.code)) {
        problems.push(`tool "${toolName}" example ${index}: expected ${expected.code}, got ${result.ok ? 'success' : result.error.code}`);
      }
    }
  }
  return run;
}

/**
 * Watches the resources created while the plugin is loaded (timers, servers, sockets, child
 * processes, pipes) and reports those still alive after its unload, once pending closes had a
 * moment to finish. An unref'd timer does not keep the process alive and is not counted.
 */
function watchResources(): { leftAlive(cycle: number): Promise<string[]> } {
  const alive = new Map<number, { type: string; resource: WeakRef<object> }>();
  const hook = createHook({
    init(asyncId, type, _trigger, resource) {
      if (RESOURCE_NAMES[type] !== undefined) alive.set(asyncId, { type, resource: new WeakRef(resource as object) });
    },
    destroy(asyncId) {
      alive.delete(asyncId);
    },
  }).enable();
  return {
    async leftAlive(cycle) {
      for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      hook.disable();
      const counts = new Map<string, number>();
      for (const { type, resource } of alive.values()) {
        // A fired or cleared timer is marked destroyed before its destroy event is told.
        const held = resource.deref() as { hasRef?: () => boolean; _destroyed?: boolean } | undefined;
        if (held === undefined || held._destroyed === true || held.hasRef?.() === false) continue;
        counts.set(type, (counts.get(type) ?? 0) + 1);
      }
      return [...counts].map(([type, count]) => `after unload (cycle ${cycle}) the plugin left ${count} x ${RESOURCE_NAMES[type]} (${type}) alive after unload: stop it in ctx.onDispose`);
    },
  };
}

const RESOURCE_NAMES: Readonly<Record<string, string>> = {
  Timeout: 'a timer or interval',
  TCPSERVERWRAP: 'a listening server',
  TCPWRAP: 'a socket',
  PIPESERVERWRAP: 'a listening pipe',
  PIPEWRAP: 'a pipe',
  PROCESSWRAP: 'a child process',
  UDPWRAP: 'a UDP socket',
  FSEVENTWRAP: 'a file watcher',
};
