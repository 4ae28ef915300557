import type { PluginContext, PluginHooks } from './define-plugin.js';
import { createDisposer, type Disposer } from '../disposer.js';
import { HarnessError } from '../harness-error.js';
import type { HarnessRuntime } from '../harness-runtime.js';
import type { Logger } from '../logger.js';
import { HOOK_NAMES, type TappableHook } from './hooks.js';
import { hookFacade } from './hook-facade.js';

/** The registrations of one loaded plugin, undone in reverse order on unload. */
export class PluginRegistrations {
  readonly #undo: (() => void | Promise<void>)[] = [];
  #closed = false;

  constructor(readonly pluginName: string) {}

  /** Records `undo` and returns a disposer that runs it early and forgets it. */
  record(undo: Disposer): Disposer {
    this.assertOpen();
    this.#undo.push(undo);
    return createDisposer(() => {
      this.forget(undo);
      undo();
    });
  }

  /** Records a cleanup to run at unload; the disposer cancels it without running it. */
  defer(cleanup: () => void | Promise<void>): Disposer {
    this.assertOpen();
    this.#undo.push(cleanup);
    return createDisposer(() => this.forget(cleanup));
  }

  assertOpen(): void {
    if (this.#closed) throw new HarnessError('PLUGIN_UNLOADED', `Plugin "${this.pluginName}" has been unloaded; it cannot register anything any more.`);
  }

  /**
   * Closes the record and undoes everything, last first. Every undo runs even if one throws, and
   * one that does not settle within `boundMs` is given up on (logged, reported as an error), so a
   * cleanup that hangs cannot hang `close()`.
   */
  async unwind(boundMs = Infinity, logger?: Logger): Promise<unknown[]> {
    this.#closed = true;
    const errors: unknown[] = [];
    while (this.#undo.length > 0) {
      const undo = this.#undo.pop()!;
      try {
        await settleWithin(undo(), boundMs);
      } catch (error) {
        if (error instanceof CleanupTimedOut) logger?.warn({ plugin: this.pluginName }, `a cleanup of plugin "${this.pluginName}" did not finish within ${boundMs} ms; unloading went on without it`);
        errors.push(error);
      }
    }
    return errors;
  }

  private forget(undo: unknown): void {
    const index = this.#undo.lastIndexOf(undo as () => void);
    if (index !== -1) this.#undo.splice(index, 1);
  }
}

/** Builds the `ctx` a plugin's setup gets: every method records its registration under the plugin. */
export function createPluginContext(runtime: HarnessRuntime, registrations: PluginRegistrations): PluginContext {
  const owner = registrations.pluginName;
  const hooks = Object.fromEntries(
    HOOK_NAMES.map((name) => [name, pluginHook(runtime.hooks[name] as TappableHook, owner, registrations)]),
  ) as unknown as PluginHooks;
  return Object.freeze({
    name: owner,
    tools: Object.freeze({
      register: (tool: Parameters<PluginContext['tools']['register']>[0], options?: Parameters<PluginContext['tools']['register']>[1]) => {
        registrations.assertOpen();
        // The plugin is always the one registering: a `plugin` key in options cannot claim another.
        const server = typeof options === 'object' && options !== null ? options.server : options;
        return registrations.record(runtime.tools.register(tool, { server: server as string | undefined, plugin: owner }));
      },
    }),
    hooks: Object.freeze(hooks),
    guards: Object.freeze({
      add: (nameOrGuard: unknown, maybeGuard?: unknown) => {
        registrations.assertOpen();
        const [name, guard] = typeof nameOrGuard === 'string' ? [nameOrGuard, maybeGuard] : [owner, nameOrGuard];
        return registrations.record(runtime.guards.add(name, guard as never));
      },
    }) as PluginContext['guards'],
    approval: Object.freeze({
      setResponder: (responder: Parameters<PluginContext['approval']['setResponder']>[0]) => {
        registrations.assertOpen();
        return registrations.record(runtime.approval.setResponder(owner, responder));
      },
      request: (request: Parameters<PluginContext['approval']['request']>[0], options?: Parameters<PluginContext['approval']['request']>[1]) => {
        registrations.assertOpen();
        // The plugin is always the one asking: a request cannot claim a guard or another plugin.
        return runtime.approval.request({ ...request, askedBy: owner, origin: 'plugin' }, { timeoutMs: runtime.approvalTimeoutMs, signal: options?.signal });
      },
    }),
    sandbox: Object.freeze({
      provide: (sandbox: Parameters<PluginContext['sandbox']['provide']>[0]) => {
        registrations.assertOpen();
        return registrations.record(runtime.sandbox.provide(owner, sandbox));
      },
      get current() {
        return runtime.sandbox.current;
      },
    }),
    logger: runtime.logger.child({ plugin: owner }),
    onDispose: (cleanup: () => void | Promise<void>) => {
      if (typeof cleanup !== 'function') throw new HarnessError('INVALID_TAP', `onDispose needs a function, got ${typeof cleanup}.`);
      return registrations.defer(cleanup);
    },
  });
}

function pluginHook(hook: TappableHook, owner: string, registrations: PluginRegistrations) {
  return hookFacade(hook, owner, (undo) => registrations.record(undo), () => registrations.assertOpen());
}

class CleanupTimedOut extends Error {
  override readonly name = 'CleanupTimedOut';
}

/** Awaits a cleanup for at most `boundMs` (its timer never keeps the process alive). */
function settleWithin(value: void | Promise<void>, boundMs: number): void | Promise<void> {
  if (!(value instanceof Promise) || !Number.isFinite(boundMs)) return value;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CleanupTimedOut(`a cleanup did not finish within ${boundMs} ms`)), boundMs);
    timer.unref?.();
  });
  return Promise.race([value, expired]).finally(() => clearTimeout(timer));
}
