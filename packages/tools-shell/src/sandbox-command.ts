import { lstatSync, readlinkSync } from 'node:fs';
import type { ProtectedMount } from './protected-mounts.js';
import type { ResolvedShellOptions, ShellUser } from './shell-options.js';
import { SANDBOX_HOME, sandboxEnvironment } from './sandbox-environment.js';
import { networkPrelude, proxyEnvironment, SANDBOX_FORWARDER, SANDBOX_NET_DIR, SANDBOX_PROXY_SOCKET } from './network/sandbox-network.js';

/** The filtered network of one command: the proxy's socket and the forwarder to bind in. */
export interface SandboxNetwork {
  /** The host path of the proxy's Unix socket. */
  readonly socketPath: string;
  /** The host path of the forwarder script. */
  readonly forwarderPath: string;
  /** The node binary on the host; bound in at `/run/weir/node` unless it lies under a system directory. */
  readonly nodePath: string;
}

/** What one command's sandbox looks like, decided at each call. */
export interface SandboxPlan {
  readonly options: ResolvedShellOptions;
  /** The canonical workspace root. */
  readonly root: string;
  /** The working directory, inside the root (canonical). */
  readonly cwd: string;
  /** The uid commands run as; `undefined` when the harness's own (non-root) user. */
  readonly user: ShellUser | undefined;
  /** The protected paths (read-only) and their ancestors (bound onto themselves), shallower first. */
  readonly protectedMounts: readonly ProtectedMount[];
  /** Existing directories and files masked by an empty one. */
  readonly maskedDirectories: readonly string[];
  readonly maskedFiles: readonly string[];
  /** An empty, read-only directory and file, both readable by the sandbox user. */
  readonly emptyDirectory: string;
  readonly emptyFile: string;
  /** From `systemMounts()`, computed once per plugin. */
  readonly systemMounts: readonly string[];
  readonly command: string;
  /** Set when the network is filtered (`network: { allow }`). */
  readonly network?: SandboxNetwork;
}

/** A process to spawn: the program, its arguments and its whole environment. */
export interface SpawnSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The environment of the launcher processes (sh, setpriv, prlimit, bwrap) outside the sandbox. */
const LAUNCHER_ENV = Object.freeze({ PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' });

/** System directories bound read-only when they exist; a symlink (merged /usr) is recreated as one. */
const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/**
 * Builds the launcher: `sh` joins stderr to stdout (one pipe, so the output interleaves as
 * written), `setpriv` drops to the unprivileged user and arms the parent-death signal (the
 * sandbox dies with the harness), `prlimit` sets the rlimits, and `bwrap` builds the sandbox.
 * Each one `exec`s the next, so the spawned pid is bwrap's and its process group is the call's.
 */
export function sandboxCommand(plan: SandboxPlan): SpawnSpec {
  const { options } = plan;
  const setpriv = ['setpriv', '--pdeathsig', 'KILL'];
  if (plan.user !== undefined) {
    setpriv.push('--reuid', String(plan.user.uid), '--regid', String(plan.user.gid), '--clear-groups', '--inh-caps=-all', '--bounding-set=-all');
  }
  setpriv.push('--');
  const limits = options.limits;
  const prlimit = ['prlimit', `--nproc=${limits.processes}`, `--fsize=${limits.fileSizeBytes}`, `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`, '--core=0'];
  if (limits.memoryBytes !== undefined) prlimit.push(`--as=${limits.memoryBytes}`);
  prlimit.push('--');
  const shell = plan.network === undefined
    ? ['/bin/bash', '--noprofile', '--norc', '-c', plan.command]
    : ['/bin/bash', '--noprofile', '--norc', '-c', networkPrelude(sandboxNode(plan.network)), 'weir-network', plan.command];
  const bwrap = [options.bwrapPath, ...bwrapArguments(plan), '--', ...shell];
  return {
    file: '/bin/sh',
    args: ['-c', 'exec "$@" 2>&1', 'weir-sandbox', ...setpriv, ...prlimit, ...bwrap],
    env: LAUNCHER_ENV,
  };
}

/** bubblewrap's arguments for the plan, mounts in order: later mounts cover earlier ones. */
export function bwrapArguments(plan: SandboxPlan): string[] {
  const { options } = plan;
  const args = [
    // Every namespace (user, pid, net, ipc, uts, cgroup, mount); no nested user namespaces, no capabilities.
    '--unshare-all', '--unshare-user', '--disable-userns', '--cap-drop', 'ALL',
    // The sandbox dies with bwrap; setsid so a command cannot type into the harness's terminal (TIOCSTI).
    '--die-with-parent', '--new-session',
    '--hostname', 'weir-sandbox',
  ];
  if (options.network) args.push('--share-net');
  args.push('--clearenv');
  // The proxy variables come last: a command's `env` cannot point them around the filter (nothing else leads out anyway).
  const env = plan.network === undefined ? sandboxEnvironment(options.env) : { ...sandboxEnvironment(options.env), ...proxyEnvironment() };
  for (const [name, value] of Object.entries(env)) args.push('--setenv', name, value);
  args.push(...plan.systemMounts);
  if (plan.network !== undefined) {
    args.push('--ro-bind', plan.network.forwarderPath, SANDBOX_FORWARDER, '--bind', plan.network.socketPath, SANDBOX_PROXY_SOCKET);
    if (sandboxNode(plan.network) !== plan.network.nodePath) args.push('--ro-bind', plan.network.nodePath, `${SANDBOX_NET_DIR}/node`);
  }
  // A fresh /proc shows only the sandbox's processes; no /sys, no /run (sockets to daemons live there).
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', String(options.limits.tmpBytes), '--tmpfs', '/tmp');
  args.push('--size', String(options.limits.tmpBytes), '--tmpfs', SANDBOX_HOME);
  for (const path of options.readable) args.push('--ro-bind', path, path);
  for (const path of options.writable) args.push('--bind', path, path);
  args.push('--bind', plan.root, plan.root);
  for (const mount of plan.protectedMounts) args.push(mount.readOnly ? '--ro-bind' : '--bind', mount.path, mount.path);
  for (const path of plan.maskedDirectories) args.push('--ro-bind', plan.emptyDirectory, path);
  for (const path of plan.maskedFiles) args.push('--ro-bind', plan.emptyFile, path);
  // The sandbox's own root (a tmpfs) read-only too: a write outside the binds fails with EROFS.
  args.push('--remount-ro', '/');
  args.push('--chdir', plan.cwd);
  return args;
}

/** The node binary's path inside the sandbox: its own when a system directory holds it, else the one bound at `/run/weir/node`. */
function sandboxNode(network: SandboxNetwork): string {
  return SYSTEM_PATHS.some((dir) => network.nodePath.startsWith(`${dir}/`)) ? network.nodePath : `${SANDBOX_NET_DIR}/node`;
}

/**
 * bwrap arguments for the system directories: each one that exists bound read-only, each symlink
 * (merged /usr: `/bin -> usr/bin`) recreated as the same link. Never `/` itself: that would import
 * the host's `/proc`, `/run` and home directories.
 */
export function systemMounts(): string[] {
  const args: string[] = [];
  for (const path of SYSTEM_PATHS) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
      else if (stat.isDirectory()) args.push('--ro-bind', path, path);
    } catch {
      // Not on this system: nothing to bind.
    }
  }
  return args;
}
