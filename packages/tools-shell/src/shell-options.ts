import { isAbsolute } from 'node:path';
import { PROTECTED_PATHS } from '@weir/core';
import { resolveNetworkAllow, type NetworkAllow, type NetworkAllowOptions } from './network/network-allow.js';

/** Limits applied to every process of a command (setrlimit, through `prlimit`). */
export interface ShellLimits {
  /**
   * Most processes the sandbox user may have at once (`RLIMIT_NPROC`). The kernel counts every
   * process of that user on the machine, so concurrent commands share it. Default 512.
   */
  readonly processes?: number;
  /** Largest file a process may write, in bytes (`RLIMIT_FSIZE`; past it: SIGXFSZ / EFBIG). Default 1 GiB. */
  readonly fileSizeBytes?: number;
  /** CPU seconds each process may use (`RLIMIT_CPU`; past it: SIGXCPU, a second later SIGKILL). Default 120. */
  readonly cpuSeconds?: number;
  /** Address space of each process in bytes (`RLIMIT_AS`). Default: no limit (it breaks runtimes that reserve large maps). */
  readonly memoryBytes?: number;
  /** Size of the private `/tmp` and home tmpfs, in bytes each. Default 256 MiB. */
  readonly tmpBytes?: number;
}

/** The user commands run as: a real, unprivileged uid on the host. */
export interface ShellUser {
  readonly uid: number;
  readonly gid: number;
}

/** Options of `shellTools`; only `root` is required. */
export interface ShellToolsOptions {
  /** The workspace: bound read-write, the only place a command may write besides its private `/tmp`. */
  readonly root: string;
  /**
   * The sandbox's network. Default `false`: a network namespace of its own with no route. `true`
   * shares the host's whole network. `{ allow: ['registry.npmjs.org', '*.pypi.org'] }` keeps the
   * namespace and lets HTTP(S) through the plugin's filtering proxy to those names only.
   */
  readonly network?: boolean | NetworkAllowOptions;
  /** More absolute paths bound read-write (they must exist). */
  readonly writable?: readonly string[];
  /** More absolute paths bound read-only (they must exist), beside the system directories. */
  readonly readable?: readonly string[];
  /**
   * Variables set inside the sandbox, beside the fixed allow-list (PATH, HOME, LANG, TERM=dumb,
   * PAGER=cat, GIT_PAGER=cat, GIT_TERMINAL_PROMPT=0). Nothing of the harness's own environment is
   * passed unless named here with its value.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Deadline of one command in milliseconds (the call may ask for less, never more). Default 120 000. */
  readonly timeoutMs?: number;
  /** Output kept for the model, head and tail halves, in bytes. Default 100 000. */
  readonly maxOutputBytes?: number;
  /** A command that writes more than this in all is killed (its head and tail are kept). Default 16 MiB. */
  readonly killAfterOutputBytes?: number;
  /**
   * Paths inside the workspace bound read-only (default: `.git`, `.weir`, `.vscode`, `.idea`,
   * `.husky`, `.envrc`, `.npmrc`, `.github/workflows`, `.devcontainer`, `.pre-commit-config.yaml`;
   * what exists of them at each call). Changes there can run code later, outside the sandbox.
   * Replaces the default list; `[]` turns it off. `package.json` is not in it: installs edit it.
   */
  readonly protect?: readonly string[];
  /**
   * Globs (relative to the root, dotfiles included) of workspace paths a command must not read:
   * each match is masked at each call (an empty directory or an empty file in its place). Give
   * the paths your safety rules deny for reading.
   */
  readonly hidden?: readonly string[];
  /** More absolute host paths masked (for example a secret inside a `readable` directory). */
  readonly hiddenAbsolute?: readonly string[];
  readonly limits?: ShellLimits;
  /**
   * Who commands run as. Default: the harness's own user when it is not root; as root, the owner
   * of the workspace when that is not root, else `nobody` (65534). Never root: root ignores the
   * process limit.
   */
  readonly user?: ShellUser;
  /**
   * Run commands with no sandbox at all: the harness's own user, environment and network, no limits.
   * Only for a machine that is itself the boundary (a throwaway container or VM). Loud by design.
   */
  readonly unsafeNoSandbox?: boolean;
  /** The bubblewrap binary. Default `bwrap` on PATH. */
  readonly bwrapPath?: string;
}

/** Defaults of `ShellToolsOptions`, exported so callers and docs can name them. */
export const SHELL_DEFAULTS = Object.freeze({
  timeoutMs: 120_000,
  maxOutputBytes: 100_000,
  killAfterOutputBytes: 16 * 1024 * 1024,
  // Core's one protected-path list, less what ordinary commands write (package.json: `npm install x`)
  // and patterns, which name no one path to bind.
  protect: Object.freeze(PROTECTED_PATHS.filter((entry) => entry.commandsWrite !== true && !entry.path.includes('*')).map((entry) => entry.path)),
  limits: Object.freeze({ processes: 512, fileSizeBytes: 1024 ** 3, cpuSeconds: 120, tmpBytes: 256 * 1024 ** 2 }),
});

/** Options after validation, with defaults filled in. */
export interface ResolvedShellOptions {
  readonly root: string;
  /** Share the host's network (`network: true`). */
  readonly network: boolean;
  /** The filtered network (`network: { allow }`), else `undefined`. */
  readonly networkAllow: NetworkAllow | undefined;
  readonly writable: readonly string[];
  readonly readable: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly killAfterOutputBytes: number;
  readonly protect: readonly string[];
  readonly hidden: readonly string[];
  readonly hiddenAbsolute: readonly string[];
  readonly limits: Required<Omit<ShellLimits, 'memoryBytes'>> & { readonly memoryBytes: number | undefined };
  readonly user: ShellUser | undefined;
  readonly unsafeNoSandbox: boolean;
  readonly bwrapPath: string;
}

const KEYS = new Set(['root', 'network', 'writable', 'readable', 'env', 'timeoutMs', 'maxOutputBytes', 'killAfterOutputBytes', 'protect', 'hidden', 'hiddenAbsolute', 'limits', 'user', 'unsafeNoSandbox', 'bwrapPath']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Validates `shellTools` options. Throws `TypeError` naming the option on any bad value or unknown key. */
export function resolveShellOptions(options: ShellToolsOptions): ResolvedShellOptions {
  if (typeof options !== 'object' || options === null) throw fail('expected options { root, network?, writable?, readable?, env?, timeoutMs?, maxOutputBytes?, ... }');
  const unknown = Object.keys(options).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) throw fail(`unknown option(s) ${unknown.join(', ')}`);
  if (typeof options.root !== 'string' || options.root.trim() === '') throw fail('root must be a non-empty path');
  const limits = options.limits ?? {};
  if (typeof limits !== 'object' || limits === null) throw fail('limits must be an object');
  const env = options.env ?? {};
  if (typeof env !== 'object' || env === null) throw fail('env must be an object of names to string values');
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) throw fail(`env name ${JSON.stringify(name)} is not a valid variable name`);
    if (typeof value !== 'string' || value.includes('\0')) throw fail(`env.${name} must be a string without NUL`);
  }
  const maxOutputBytes = positive(options.maxOutputBytes, SHELL_DEFAULTS.maxOutputBytes, 'maxOutputBytes');
  const killAfterOutputBytes = positive(options.killAfterOutputBytes, Math.max(SHELL_DEFAULTS.killAfterOutputBytes, maxOutputBytes), 'killAfterOutputBytes');
  if (killAfterOutputBytes < maxOutputBytes) throw fail('killAfterOutputBytes must be at least maxOutputBytes');
  const user = options.user;
  if (user !== undefined && (typeof user !== 'object' || user === null || !isId(user.uid) || !isId(user.gid))) throw fail('user must be { uid, gid } with non-negative integers');
  if (user !== undefined && user.uid === 0) throw fail('user must not be root (uid 0): root ignores the process limit');
  const unsafeNoSandbox = options.unsafeNoSandbox ?? false;
  if (typeof unsafeNoSandbox !== 'boolean') throw fail('unsafeNoSandbox must be a boolean');
  const network = options.network ?? false;
  if (typeof network !== 'boolean' && (typeof network !== 'object' || network === null)) throw fail('network must be a boolean or { allow: [host names] }');
  const networkAllow = typeof network === 'object' ? resolveNetworkAllow(network) : undefined;
  if (networkAllow !== undefined && unsafeNoSandbox) throw fail('network.allow needs the sandbox (it filters the sandbox\'s own network); it cannot apply with unsafeNoSandbox');
  return Object.freeze({
    root: options.root,
    network: network === true,
    networkAllow,
    writable: absolutePaths(options.writable, 'writable'),
    readable: absolutePaths(options.readable, 'readable'),
    env: Object.freeze({ ...env }),
    timeoutMs: positive(options.timeoutMs, SHELL_DEFAULTS.timeoutMs, 'timeoutMs'),
    maxOutputBytes,
    killAfterOutputBytes,
    protect: relativePaths(options.protect ?? SHELL_DEFAULTS.protect, 'protect'),
    hidden: relativePaths(options.hidden ?? [], 'hidden'),
    hiddenAbsolute: absolutePaths(options.hiddenAbsolute, 'hiddenAbsolute'),
    limits: Object.freeze({
      processes: positive(limits.processes, SHELL_DEFAULTS.limits.processes, 'limits.processes'),
      fileSizeBytes: positive(limits.fileSizeBytes, SHELL_DEFAULTS.limits.fileSizeBytes, 'limits.fileSizeBytes'),
      cpuSeconds: positive(limits.cpuSeconds, SHELL_DEFAULTS.limits.cpuSeconds, 'limits.cpuSeconds'),
      tmpBytes: positive(limits.tmpBytes, SHELL_DEFAULTS.limits.tmpBytes, 'limits.tmpBytes'),
      memoryBytes: limits.memoryBytes === undefined ? undefined : positive(limits.memoryBytes, 0, 'limits.memoryBytes'),
    }),
    user: user === undefined ? undefined : Object.freeze({ uid: user.uid, gid: user.gid }),
    unsafeNoSandbox,
    bwrapPath: options.bwrapPath ?? 'bwrap',
  });
}

function positive(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw fail(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function absolutePaths(value: unknown, name: string): readonly string[] {
  const list = stringList(value, name);
  for (const item of list) if (!isAbsolute(item)) throw fail(`${name} entries must be absolute paths, got ${JSON.stringify(item)}`);
  return list;
}

function relativePaths(value: unknown, name: string): readonly string[] {
  const list = stringList(value, name);
  for (const item of list) {
    if (isAbsolute(item) || item.split('/').includes('..')) throw fail(`${name} entries are relative to the workspace root and stay inside it, got ${JSON.stringify(item)}`);
  }
  return list;
}

function stringList(value: unknown, name: string): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '' && !item.includes('\0'))) {
    throw fail(`${name} must be an array of non-empty strings`);
  }
  return Object.freeze([...value]);
}

function fail(message: string): TypeError {
  return new TypeError(`shellTools: ${message}.`);
}
