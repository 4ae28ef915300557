import { FsError } from '../fs-error.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import type { Located } from '../confinement/locate-physical.js';

const ATTEMPTS = 3;

/**
 * Locates `input` for writing and runs `task` holding the lock of its canonical path, with the
 * file located again inside the lock: what `task` sees is the file as the previous writer of the
 * same path left it, so its read-change-rename is one step per path. When the canonical path
 * moved between the two lookups (a link changed), the lookup starts over; after three moves the
 * call fails with `PATH_CHANGED`. Throws `FsError`.
 */
export async function withWriteLock<T>(deps: FsToolDeps, input: unknown, display: string, task: (located: Located) => Promise<T>): Promise<T> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const first = await deps.workspace.locateOrThrow(input, 'write');
    const outcome = await deps.locks.run(first.path, async () => {
      const located = await deps.workspace.locateOrThrow(input, 'write');
      if (located.path !== first.path) return undefined;
      return { value: await task(located) };
    });
    if (outcome !== undefined) return outcome.value;
  }
  throw new FsError('PATH_CHANGED', `${display} kept pointing somewhere else while it was being written (a symbolic link changing?); nothing was written. Try again.`);
}
