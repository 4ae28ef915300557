import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { unavailable } from './probe-sandbox.js';

const INSTALL = 'install it (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)';

/**
 * The bubblewrap binary to launch: `bwrapPath` itself when it names a path, else the first
 * executable of that name on `searchPath` (the harness's `PATH`, as a shell would find it).
 * Throws `SandboxUnavailableError` saying bubblewrap is not installed, and how to install it:
 * the one cause a failed probe would word as a launcher error.
 */
export function locateBubblewrap(bwrapPath: string, searchPath: string | undefined): string {
  if (bwrapPath.includes('/')) {
    const path = isAbsolute(bwrapPath) ? bwrapPath : resolve(bwrapPath);
    if (!executable(path)) throw unavailable(`${path} is not an executable file; ${INSTALL} or pass bwrapPath of the binary`);
    return path;
  }
  const directories = (searchPath ?? '').split(delimiter).filter((directory) => directory !== '' && isAbsolute(directory));
  for (const directory of directories) {
    const path = join(directory, bwrapPath);
    if (executable(path)) return path;
  }
  throw unavailable(`bubblewrap is not installed (no ${bwrapPath} on PATH); ${INSTALL}`);
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
