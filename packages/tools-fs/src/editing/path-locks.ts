/**
 * One queue per key (a canonical path): `run` waits for every earlier holder of the key, then
 * runs its task alone. The write tools hold a path's lock from reading the file to renaming the
 * new content into place, so parallel edits of one file in a batch apply one after the other and
 * none is lost. Keys with no holder are forgotten, so the map stays as small as the calls in flight.
 */
export class PathLocks {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task on `key` has settled; returns what it returns. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => mine);
    this.#tails.set(key, tail);
    await before;
    try {
      return await task();
    } finally {
      release();
      // Only the last holder removes the key; a later one has replaced the tail already.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Keys with a task running or waiting (tests check nothing leaks). */
  get size(): number {
    return this.#tails.size;
  }
}
