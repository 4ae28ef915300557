import { realpath, stat } from 'node:fs/promises';
import { definePlugin, type Plugin } from '@weir/core';
import { CommandRunner } from './command-runner.js';
import { locateBubblewrap } from './locate-bubblewrap.js';
import { probeSandbox, SandboxUnavailableError, unavailable } from './probe-sandbox.js';
import { describeWorkspaceBlock, workspaceBlock } from './workspace-reach.js';
import { runCommandTool } from './run-command-tool.js';
import { loadActiveSpan } from './network/network-span-events.js';
import { sandboxUser } from './sandbox-user.js';
import { resolveShellOptions, type ShellToolsOptions } from './shell-options.js';

/**
 * The shell tool as a plugin named `tools-shell`: `run_command` (tier `dangerous`), each command
 * under bubblewrap as an unprivileged user with rlimits. Throws `TypeError` on invalid options.
 * Setup (and so `harness.use`) fails when the root is not a directory, or, unless
 * `unsafeNoSandbox` is set, when bubblewrap is not found (`bwrapPath`, or `bwrap` on the
 * harness's `PATH`) or a probe command cannot run in the sandbox
 * (`SandboxUnavailableError`, code `SANDBOX_UNAVAILABLE`, as the cause). Unloading kills every
 * command still running and waits until it is gone.
 */
export function shellTools(options: ShellToolsOptions): Plugin {
  const resolved = resolveShellOptions(options);
  return definePlugin({
    name: 'tools-shell',
    async setup(ctx) {
      const root = await realpath(resolved.root);
      if (!(await stat(root)).isDirectory()) throw new TypeError(`shellTools: root ${resolved.root} is not a directory.`);
      let user;
      try {
        user = resolved.unsafeNoSandbox ? undefined : sandboxUser(root, resolved.user);
      } catch (error) {
        throw new SandboxUnavailableError(`the shell sandbox is not available: ${(error as Error).message}.`, (error as Error).message);
      }
      // Found on the harness's PATH first: a missing binary is named as such, not as a launcher failure.
      const bwrapPath = resolved.unsafeNoSandbox ? resolved.bwrapPath : locateBubblewrap(resolved.bwrapPath, process.env.PATH);
      const runner = await CommandRunner.create({ ...resolved, bwrapPath }, root, user);
      ctx.onDispose(() => runner.close());
      if (resolved.unsafeNoSandbox) {
        ctx.logger.warn({ root }, 'tools-shell: unsafeNoSandbox is set: run_command runs commands WITHOUT any sandbox, as this process\'s user, with its network and files');
      } else {
        // A directory the sandbox user cannot pass explains a failed probe better than bubblewrap's
        // own words (which point at namespaces); it is looked for only when the probe fails.
        try {
          await probeSandbox(runner, root, user === undefined ? `this process's user (uid ${process.getuid?.()})` : `uid ${user.uid}`);
        } catch (error) {
          const blocked = user === undefined ? undefined : workspaceBlock(root, user);
          if (blocked === undefined || user === undefined) throw error;
          throw unavailable(describeWorkspaceBlock(root, user, blocked));
        }
      }
      const activeSpan = resolved.networkAllow === undefined ? undefined : await loadActiveSpan();
      ctx.tools.register(runCommandTool({ runner, root, timeoutMs: resolved.timeoutMs, networkAllow: resolved.networkAllow?.entries, perCallHosts: resolved.networkAllow?.perCallHosts, activeSpan }));
      ctx.logger.debug({ root, sandboxed: runner.sandboxed, uid: user?.uid }, 'tools-shell: ready');
    },
  });
}
