export { shellTools } from './shell-tools.js';
export { SHELL_DEFAULTS } from './shell-options.js';
export type { ShellLimits, ShellToolsOptions, ShellUser } from './shell-options.js';
export { SandboxUnavailableError } from './probe-sandbox.js';
export { renderCommandResult } from './run-command-tool.js';
export type { CommandResult } from './run-command-tool.js';
export type { KillReason } from './run-process.js';
export type { HostLookup, NetworkAllowOptions } from './network/network-allow.js';
export type { NetworkReport, RefusedHost } from './network/network-log.js';
