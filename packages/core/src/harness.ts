import { ApprovalGate, DEFAULT_APPROVAL_TIMEOUT_MS } from './policy/approval.js';
import type { ToolCall } from './tools/call-context.js';
import type { Plugin } from './plugins/define-plugin.js';
import type { AsyncDisposer } from './disposer.js';
import { announceResult, tellJournal } from './pipeline/announce-result.js';
import { DEFAULT_PROGRESS_INTERVAL_MS } from './pipeline/progress-channel.js';
import { runToolCall } from './pipeline/run-tool-call.js';
import { DEFAULT_TOOL_CONCURRENCY, runToolCalls } from './pipeline/run-tool-calls.js';
import { GuardList } from './policy/guards.js';
import type { HarnessRuntime } from './harness-runtime.js';
import { createHooks, HOOK_NAMES, type TappableHook } from './plugins/hooks.js';
import { hookFacade } from './plugins/hook-facade.js';
import type { PluginHooks } from './plugins/define-plugin.js';
import { silentLogger, type Logger } from './logger.js';
import { PluginHost } from './plugins/plugin-host.js';
import { DEFAULT_MAX_CONTENT_CHARS, DEFAULT_MAX_IMAGE_BYTES } from './tools/render-content.js';
import { SandboxSlot } from './policy/sandbox-slot.js';
import type { ExecuteManyOptions, ExecuteOptions } from './pipeline/execute-options.js';
import { ToolRegistry } from './tools/tool-registry.js';
import type { ToolResult } from './tools/tool-result.js';

export type { ExecuteManyOptions, ExecuteOptions, ProgressListener } from './pipeline/execute-options.js';

/** Default per-call deadline for a tool that does not set `timeoutMs`. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

export interface HarnessOptions {
  /** A pino (or pino-compatible) logger. Default: silent. */
  readonly logger?: Logger;
  /** Deadline of a call whose tool sets no `timeoutMs`. Default 120 000 ms; `Infinity` for none. */
  readonly defaultTimeoutMs?: number;
  /** How long the approval responder has to answer before the call is denied. Default 300 000 ms. */
  readonly approvalTimeoutMs?: number;
  /** Cap on one result's model-visible content, in characters. Default 100 000. */
  readonly maxContentChars?: number;
  /** Cap on one image's bytes (decoded) in a result; a bigger image is replaced by a note, never cut. Default 5 MB. */
  readonly maxImageBytes?: number;
  /** Least spacing of one call's delivered progress reports; a burst is thinned to it. Default 100 ms; 0 delivers every report. */
  readonly progressIntervalMs?: number;
  /**
   * How long one awaited piece of plugin code (a guard, a prepareExecution or postExecute tap, an
   * execute tap building its wrapper) may take before the call fails closed with `HOOK_FAILED`
   * naming the plugin and the stage. Default 30 000 ms; `Infinity` for none. (The approver has
   * `approvalTimeoutMs`; a wrapper's run is bounded by the tool's deadline.)
   */
  readonly hookTimeoutMs?: number;
  /** How long one plugin's cleanup (an `onDispose`) may take while unloading before it is given up on (logged). Default 10 000 ms. */
  readonly disposeTimeoutMs?: number;
}

/** Default bound on one awaited piece of plugin code. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;
/** Default bound on one cleanup while a plugin unloads. */
export const DEFAULT_DISPOSE_TIMEOUT_MS = 10_000;

export interface Harness extends AsyncDisposable {
  /** The registry: `schemas()` is the model view, `get(name)` the execution view. */
  readonly tools: ToolRegistry;
  /**
   * The six stage hooks, as tapping with an undo (`tap`, `tapPromise`, `tapAsync` return a
   * `Disposer`). A tap made here belongs to no plugin and is not undone by unloading.
   */
  readonly hooks: PluginHooks;
  readonly logger: Logger;
  /** Loads a plugin. Resolves to its unload; throws `HarnessError` on a bad or failing plugin. */
  use(plugin: Plugin): Promise<AsyncDisposer>;
  /** Names of the loaded plugins, in load order. */
  plugins(): string[];
  /** Runs one call through the six stages. Never rejects: failures are error results. */
  executeToolCall(call: ToolCall, options?: ExecuteOptions): Promise<ToolResult>;
  /** Runs a batch with bounded concurrency; results (and announcements) in call order. Never rejects. */
  executeToolCalls(calls: readonly ToolCall[], options?: ExecuteManyOptions): Promise<ToolResult[]>;
  /** Unloads every plugin, last loaded first. */
  close(): Promise<void>;
}

const runtimes = new WeakMap<Harness, HarnessRuntime>();

/** The internals of a harness, for `@weir/core/testing` and the agent loop. Not public API. */
export function runtimeOf(harness: Harness): HarnessRuntime {
  const runtime = runtimes.get(harness);
  if (runtime === undefined) throw new TypeError('Not a harness made by createHarness().');
  return runtime;
}

/** The `turn` observer hook of a harness made by `createHarness`, for the agent loop; `undefined` for any other object. */
export function turnHookOf(harness: Harness): HarnessRuntime['hooks']['turn'] | undefined {
  return runtimes.get(harness)?.hooks.turn;
}

/** The `modelCall` hook of a harness made by `createHarness`, for the agent loop. */
export function modelCallHookOf(harness: Harness): HarnessRuntime['hooks']['modelCall'] | undefined {
  return runtimes.get(harness)?.hooks.modelCall;
}

/** The `compaction` hook of a harness made by `createHarness`, for the agent loop. */
export function compactionHookOf(harness: Harness): HarnessRuntime['hooks']['compaction'] | undefined {
  return runtimes.get(harness)?.hooks.compaction;
}

/** Creates a harness: an empty registry, the six hooks, no guards, no approver, no sandbox. */
export function createHarness(options: HarnessOptions = {}): Harness {
  const runtime: HarnessRuntime = {
    tools: new ToolRegistry(),
    hooks: createHooks(),
    guards: new GuardList(),
    approval: new ApprovalGate(),
    sandbox: new SandboxSlot(),
    logger: options.logger ?? silentLogger(),
    defaultTimeoutMs: positive(options.defaultTimeoutMs, 'defaultTimeoutMs') ?? DEFAULT_TOOL_TIMEOUT_MS,
    approvalTimeoutMs: positive(options.approvalTimeoutMs, 'approvalTimeoutMs') ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    maxContentChars: positive(options.maxContentChars, 'maxContentChars') ?? DEFAULT_MAX_CONTENT_CHARS,
    maxImageBytes: positive(options.maxImageBytes, 'maxImageBytes') ?? DEFAULT_MAX_IMAGE_BYTES,
    progressIntervalMs: nonNegative(options.progressIntervalMs, 'progressIntervalMs') ?? DEFAULT_PROGRESS_INTERVAL_MS,
    hookTimeoutMs: positive(options.hookTimeoutMs, 'hookTimeoutMs') ?? DEFAULT_HOOK_TIMEOUT_MS,
    disposeTimeoutMs: positive(options.disposeTimeoutMs, 'disposeTimeoutMs') ?? DEFAULT_DISPOSE_TIMEOUT_MS,
  };
  const host = new PluginHost(runtime);

  const harness: Harness = Object.freeze({
    tools: runtime.tools,
    hooks: publicHooks(runtime),
    logger: runtime.logger,
    use: (plugin: Plugin) => host.use(plugin),
    plugins: () => host.names(),
    executeToolCall: async (call: ToolCall, callOptions?: ExecuteOptions) => {
      const { result, context } = await runToolCall(runtime, call, callOptions);
      announceResult(runtime, result, context);
      if (callOptions?.journal !== undefined) tellJournal(callOptions.journal, result, context);
      return result;
    },
    executeToolCalls: async (calls: readonly ToolCall[], callOptions?: ExecuteManyOptions) =>
      // Bad input is an answer, never a rejection: a batch that is not a list has no calls to answer.
      Array.isArray(calls) ? runToolCalls(runtime, calls, callOptions, callOptions?.concurrency ?? DEFAULT_TOOL_CONCURRENCY) : [],
    close: () => host.close(),
    [Symbol.asyncDispose]: () => host.close(),
  });
  runtimes.set(harness, runtime);
  return harness;
}

function nonNegative(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) throw new TypeError(`createHarness: ${name} must be a finite number >= 0, got ${String(value)}.`);
  return value;
}

/** The hooks as the public sees them: tapping with an undo, not tapable's hooks themselves. */
function publicHooks(runtime: HarnessRuntime): PluginHooks {
  const facades = HOOK_NAMES.map((name) => [name, hookFacade(runtime.hooks[name] as TappableHook, 'harness', (undo) => undo)]);
  return Object.freeze(Object.fromEntries(facades)) as unknown as PluginHooks;
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0)) throw new TypeError(`createHarness: ${name} must be a positive number, got ${String(value)}.`);
  return value;
}
