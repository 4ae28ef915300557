import { assertPlugin, type Plugin } from './define-plugin.js';
import type { AsyncDisposer } from '../disposer.js';
import { HarnessError } from '../harness-error.js';
import type { HarnessRuntime } from '../harness-runtime.js';
import { createPluginContext, PluginRegistrations } from './plugin-context.js';

interface LoadedPlugin {
  readonly plugin: Plugin;
  readonly registrations: PluginRegistrations;
}

/**
 * Loads and unloads plugins atomically. A setup that fails leaves nothing behind; an unload
 * undoes every registration in reverse order; a plugin others depend on cannot unload first.
 */
export class PluginHost {
  // Insertion order is load order; `close` unloads in reverse.
  readonly #loaded = new Map<string, LoadedPlugin>();
  readonly #loading = new Set<string>();
  #closed = false;

  constructor(private readonly runtime: HarnessRuntime) {}

  /** Names of the loaded plugins, in load order. */
  names(): string[] {
    return [...this.#loaded.keys()];
  }

  async use(plugin: Plugin): Promise<AsyncDisposer> {
    assertPlugin(plugin, 'harness.use');
    if (this.#closed) throw new HarnessError('HARNESS_CLOSED', `Cannot load plugin "${plugin.name}": the harness is closed.`);
    const { name } = plugin;
    if (this.#loaded.has(name) || this.#loading.has(name)) {
      throw new HarnessError('PLUGIN_ALREADY_LOADED', `A plugin named "${name}" is already loaded. Unload it first, or give the new one another name.`);
    }
    const missing = (plugin.dependsOn ?? []).filter((dependency) => !this.#loaded.has(dependency));
    if (missing.length > 0) {
      throw new HarnessError('PLUGIN_DEPENDENCY_MISSING', `Plugin "${name}" depends on ${missing.map((dep) => `"${dep}"`).join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not loaded. Load ${missing.length === 1 ? 'it' : 'them'} first.`);
    }

    const registrations = new PluginRegistrations(name);
    this.#loading.add(name);
    try {
      await plugin.setup(createPluginContext(this.runtime, registrations));
    } catch (error) {
      await this.unwindQuietly(name, registrations);
      // The cause's message usually ends with its own period: never print two.
      const reason = (error instanceof Error ? error.message : String(error)).replace(/[.\s]+$/, '');
      throw new HarnessError('PLUGIN_SETUP_FAILED', `Plugin "${name}" failed to set up: ${reason}. Nothing it registered was kept.`, { cause: error });
    } finally {
      this.#loading.delete(name);
    }
    if (this.#closed) {
      // close() ran while this setup was under way: nothing it registered may outlive the harness.
      await this.unwindQuietly(name, registrations);
      throw new HarnessError('HARNESS_CLOSED', `Plugin "${name}" was not loaded: the harness closed while it was setting up. Nothing it registered was kept.`);
    }
    const entry: LoadedPlugin = { plugin, registrations };
    this.#loaded.set(name, entry);

    let unloading: Promise<void> | undefined;
    // Idempotent once it has started; a refused unload (PLUGIN_IN_USE) can be tried again later.
    return async () => {
      if (this.#loaded.get(name) !== entry) return unloading;
      this.assertNoDependents(name);
      unloading = this.unload(name, entry);
      return unloading;
    };
  }

  /** Unloads every plugin, last loaded first. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const failures: unknown[] = [];
    for (const [name, entry] of [...this.#loaded].reverse()) {
      try {
        await this.unload(name, entry);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) {
      throw new HarnessError('PLUGIN_DISPOSE_FAILED', `${failures.length} plugin(s) failed to clean up while closing; every registration was still removed.`, { cause: new AggregateError(failures) });
    }
  }

  private async unwindQuietly(name: string, registrations: PluginRegistrations): Promise<void> {
    const cleanupErrors = await registrations.unwind(this.runtime.disposeTimeoutMs, this.runtime.logger);
    for (const cleanupError of cleanupErrors) this.runtime.logger.error({ err: cleanupError, plugin: name }, 'cleanup after a failed or cancelled setup failed');
  }

  private assertNoDependents(name: string): void {
    const dependents = [...this.#loaded.values()].filter((entry) => entry.plugin.dependsOn?.includes(name)).map((entry) => `"${entry.plugin.name}"`);
    if (dependents.length > 0) {
      throw new HarnessError('PLUGIN_IN_USE', `Plugin "${name}" cannot unload while ${dependents.join(', ')} depend${dependents.length === 1 ? 's' : ''} on it. Unload ${dependents.length === 1 ? 'that plugin' : 'those plugins'} first.`);
    }
  }

  private async unload(name: string, entry: LoadedPlugin): Promise<void> {
    this.#loaded.delete(name);
    const errors = await entry.registrations.unwind(this.runtime.disposeTimeoutMs, this.runtime.logger);
    if (errors.length > 0) {
      throw new HarnessError('PLUGIN_DISPOSE_FAILED', `Plugin "${name}" failed to clean up (${errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}); every registration was still removed.`, { cause: new AggregateError(errors) });
    }
  }
}
