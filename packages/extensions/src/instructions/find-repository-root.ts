import { access } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The nearest folder from `start` up that holds `.git` (a folder, or a worktree's file); `undefined` when none does. */
export async function findRepositoryRoot(start: string): Promise<string | undefined> {
  let dir = start;
  for (;;) {
    try {
      await access(join(dir, '.git'));
      return dir;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}
