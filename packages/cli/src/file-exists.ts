import { access } from 'node:fs/promises';

/** Whether something is at `path` (any kind, readable or not). */
export async function fileExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
