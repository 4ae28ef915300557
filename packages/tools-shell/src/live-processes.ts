import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { signalGroup } from './run-process.js';

/**
 * The commands of one plugin that are still running, so that unloading the plugin can kill them
 * all and wait until they are gone.
 */
export class LiveProcesses {
  readonly #children = new Set<ChildProcess>();

  get size(): number {
    return this.#children.size;
  }

  /** The `track` callback of `runProcess`. */
  readonly track = (child: ChildProcess, alive: boolean): void => {
    if (alive) this.#children.add(child);
    else this.#children.delete(child);
  };

  /** SIGKILLs every live command's process group and resolves once each one has closed. */
  async killAll(): Promise<void> {
    const children = [...this.#children];
    await Promise.all(
      children.map(async (child) => {
        const closed = once(child, 'close');
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        await closed;
      }),
    );
  }
}
