import type { ApprovalOutcome, ApprovalResponder, PluginApprovalRequest } from '../policy/approval.js';
import type { Disposer } from '../disposer.js';
import type { ToolDefinition } from '../tools/define-tool.js';
import type { RegisterOptions } from '../tools/tool-registry.js';
import type { Guard } from '../policy/guards.js';
import { HarnessError } from '../harness-error.js';
import type { HarnessHooks } from './hooks.js';
import type { Logger } from '../logger.js';
import type { Sandbox } from '../policy/sandbox.js';

/** tapable's tap options; `name` defaults to the plugin's name. */
export type TapOptions = string | { readonly name?: string; readonly stage?: number; readonly before?: string | string[] };

type TapFn<H, M extends string> = H extends { [K in M]: (options: any, fn: infer F) => void } ? F : never;

/** One stage hook as a plugin sees it: every tap returns its undo. */
export type PluginHook<H> = {
  tap(fn: TapFn<H, 'tap'>): Disposer;
  tap(options: TapOptions, fn: TapFn<H, 'tap'>): Disposer;
} & (H extends { tapPromise: unknown }
  ? {
      tapPromise(fn: TapFn<H, 'tapPromise'>): Disposer;
      tapPromise(options: TapOptions, fn: TapFn<H, 'tapPromise'>): Disposer;
      tapAsync(fn: TapFn<H, 'tapAsync'>): Disposer;
      tapAsync(options: TapOptions, fn: TapFn<H, 'tapAsync'>): Disposer;
    }
  : unknown);

export type PluginHooks = { readonly [K in keyof HarnessHooks]: PluginHook<HarnessHooks[K]> };

/**
 * What a plugin's `setup` gets. Everything registered through it is recorded under the plugin's
 * name and undone, in reverse order, when the plugin unloads. After the unload every method throws
 * `PLUGIN_UNLOADED`, so a late registration cannot leak.
 */
export interface PluginContext {
  readonly name: string;
  /**
   * `register(tool, { server })`: the registry records the plugin as the tool's source, and for a
   * tool the plugin brought from elsewhere (an MCP server), the server's name.
   */
  readonly tools: { register(tool: ToolDefinition, options?: RegisterOptions): Disposer };
  readonly hooks: PluginHooks;
  readonly guards: { add(guard: Guard): Disposer; add(name: string, guard: Guard): Disposer };
  readonly approval: {
    setResponder(responder: ApprovalResponder): Disposer;
    /**
     * Asks the harness's approval responder something of the plugin's own (an MCP server's
     * question during a call), with the harness's approval timeout, failing closed like a call's
     * approval: no responder, a failure, a timeout or `signal` aborting all deny. Never rejects.
     */
    request(request: PluginApprovalRequest, options?: { readonly signal?: AbortSignal }): Promise<ApprovalOutcome>;
  };
  /** The seam for path confinement: one plugin provides it, every tool and policy reads it. */
  readonly sandbox: { provide(sandbox: Sandbox): Disposer; readonly current: Sandbox | undefined };
  /** A child of the harness's logger (pino or compatible; silent by default) bound to `{ plugin: name }`. */
  readonly logger: Logger;
  /** Runs `cleanup` when the plugin unloads (awaited). The disposer cancels it. */
  onDispose(cleanup: () => void | Promise<void>): Disposer;
}

export interface Plugin {
  /** Unique among the plugins loaded in a harness; also the name of its taps. */
  readonly name: string;
  /** Plugins that must be loaded first; they cannot unload while this one is loaded. */
  readonly dependsOn?: readonly string[];
  setup(ctx: PluginContext): void | Promise<void>;
}

/** Declares a plugin. Throws `INVALID_PLUGIN` on a missing name or setup. */
export function definePlugin(plugin: Plugin): Plugin {
  assertPlugin(plugin, 'definePlugin');
  return Object.freeze({ ...plugin, dependsOn: Object.freeze([...(plugin.dependsOn ?? [])]) });
}

/** True when `value` has the shape of a plugin. */
export function isPlugin(value: unknown): value is Plugin {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Plugin>;
  return (
    typeof candidate.name === 'string' &&
    candidate.name.trim() !== '' &&
    typeof candidate.setup === 'function' &&
    (candidate.dependsOn === undefined || (Array.isArray(candidate.dependsOn) && candidate.dependsOn.every((dep) => typeof dep === 'string')))
  );
}

export function assertPlugin(value: unknown, where: string): asserts value is Plugin {
  if (!isPlugin(value)) {
    throw new HarnessError('INVALID_PLUGIN', `${where}: expected a plugin { name, setup(ctx), dependsOn? }, got ${value === null ? 'null' : typeof value === 'object' ? `an object with keys ${JSON.stringify(Object.keys(value as object))}` : typeof value}.`);
  }
}
