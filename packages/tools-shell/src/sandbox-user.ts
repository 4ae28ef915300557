import { statSync } from 'node:fs';
import type { ShellUser } from './shell-options.js';

/** uid and gid of `nobody` on Debian and most Linux systems. */
export const NOBODY: ShellUser = Object.freeze({ uid: 65534, gid: 65534 });

/**
 * Who commands run as, or `undefined` for the harness's own user. A harness that is not root
 * runs commands as itself (it is unprivileged already and cannot switch). As root: the `user`
 * given, else the workspace's owner when that is not root, else `nobody`. Never root: the
 * kernel does not apply the process limit to root. Throws when a `user` is asked for without
 * root (only root can switch users).
 */
export function sandboxUser(root: string, wanted: ShellUser | undefined): ShellUser | undefined {
  const self = process.getuid?.();
  if (self !== 0) {
    if (wanted !== undefined && wanted.uid !== self) throw new Error(`user ${wanted.uid} needs the harness to run as root (it runs as uid ${self}); drop the user option to run commands as uid ${self}`);
    return undefined;
  }
  if (wanted !== undefined) return wanted;
  const owner = statSync(root);
  return owner.uid !== 0 ? { uid: owner.uid, gid: owner.gid } : NOBODY;
}
