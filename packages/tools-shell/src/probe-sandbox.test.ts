import { describe, expect, it } from 'vitest';
import { launcherAdvice } from './probe-sandbox.js';

// What bubblewrap prints when it runs and fails, as it words it (bwrap 0.8 and 0.11).
describe('launcherAdvice', () => {
  it('a mount that cannot be made names the paths, not installing bubblewrap', () => {
    for (const said of ["bwrap: Can't bind mount /oldroot/work/x on /newroot/work/x: No such file or directory", "bwrap: Can't find source path /nix/store: No such file or directory", "bwrap: Can't mkdir /newroot/run/x: Read-only file system"]) {
      const advice = launcherAdvice(said);
      expect(advice).toMatch(/cannot be mounted/);
      expect(advice).not.toMatch(/install|namespaces/i);
    }
  });

  it('a refused namespace says how to allow it', () => {
    for (const said of ['bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.', 'bwrap: setting up uid map: Permission denied', 'bwrap: Creating new namespace failed: Operation not permitted']) {
      expect(launcherAdvice(said)).toMatch(/^The kernel refused the sandbox's namespaces: allow unprivileged user namespaces \(sysctl kernel.unprivileged_userns_clone=1/);
    }
  });

  it('anything else: a command to try by hand, and the namespace setting', () => {
    expect(launcherAdvice('(no output)')).toMatch(/^Check that bubblewrap works here \(bwrap --ro-bind \/ \/ true\), and allow unprivileged user namespaces/);
  });
});
