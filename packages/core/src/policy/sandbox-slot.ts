import { createDisposer, type Disposer } from '../disposer.js';
import { HarnessError } from '../harness-error.js';
import type { Sandbox } from './sandbox.js';

/** Holds the harness's one sandbox. Two confinements at once would mean two choke points: refused. */
export class SandboxSlot {
  #holder: { readonly owner: string; readonly sandbox: Sandbox } | undefined;

  /** Provides the sandbox. Throws `SLOT_TAKEN` if another owner already provides one. */
  provide(owner: string, sandbox: Sandbox): Disposer {
    if (typeof sandbox?.resolve !== 'function' || typeof sandbox.root !== 'string') {
      throw new HarnessError('INVALID_TAP', `"${owner}" provided a sandbox without a root and a resolve(path, intent) method.`);
    }
    if (this.#holder) throw new HarnessError('SLOT_TAKEN', `"${owner}" cannot provide the sandbox: "${this.#holder.owner}" already provides it.`);
    const holder = { owner, sandbox };
    this.#holder = holder;
    return createDisposer(() => {
      if (this.#holder === holder) this.#holder = undefined;
    });
  }

  get current(): Sandbox | undefined {
    return this.#holder?.sandbox;
  }

  get owner(): string | undefined {
    return this.#holder?.owner;
  }
}
