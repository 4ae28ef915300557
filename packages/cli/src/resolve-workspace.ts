import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/** The workspace root, canonical: `--workspace`, or the current folder. A missing or non-folder path is a `UsageError`. */
export async function resolveWorkspace(flag: string | undefined, cwd: string = process.cwd()): Promise<string> {
  const wanted = resolve(cwd, flag ?? '.');
  let canonical: string;
  try {
    canonical = await realpath(wanted);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`The workspace ${wanted} ${code === 'ENOENT' ? 'does not exist' : `cannot be used (${code ?? (error as Error).message})`}.`);
  }
  if (!(await stat(canonical)).isDirectory()) throw new UsageError(`The workspace ${wanted} is not a folder.`);
  return canonical;
}
