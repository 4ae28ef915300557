import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveProcesses } from './live-processes.js';
import { runProcess, type ProcessOutcome } from './run-process.js';
import { sandboxCommand, systemMounts, type SpawnSpec } from './sandbox-command.js';
import { sandboxEnvironment } from './sandbox-environment.js';
import type { ResolvedShellOptions, ShellUser } from './shell-options.js';
import { protectedMounts, verifyProtectedMounts, type ProtectedMount } from './protected-mounts.js';
import { hiddenMounts } from './workspace-mounts.js';
import { FilteringProxy } from './network/filtering-proxy.js';
import { FORWARDER_SCRIPT } from './network/forwarder-script.js';
import type { NetworkDecision } from './network/network-decision.js';
import { withCallHosts } from './network/network-allow.js';
import { NetworkLog, type NetworkReport } from './network/network-log.js';
import type { SandboxNetwork } from './sandbox-command.js';

/** One command to run. */
export interface CommandRequest {
  readonly command: string;
  /** Canonical, inside the root. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly onOutput?: (text: string) => void;
  /** Gets each connection the filtering proxy allowed or refused, as it decides (only with `network: { allow }`). */
  readonly onNetwork?: (decision: NetworkDecision) => void;
  /** Exact host names this call may reach beside the plugin's allow-list (`network.perCallHosts`). */
  readonly extraHosts?: readonly string[];
}

/** How a command ended, with the hosts its filtered network allowed and refused (`network` only with `network: { allow }`). */
export interface CommandOutcome extends ProcessOutcome {
  readonly network?: NetworkReport;
}

/**
 * Runs commands the way one `shellTools` plugin was configured: in the sandbox, or unconfined
 * when `unsafeNoSandbox` was asked for. Owns what it spawned: `close()` kills what is still
 * running and removes its scratch directory.
 */
export class CommandRunner {
  readonly sandboxed: boolean;
  readonly #options: ResolvedShellOptions;
  readonly #root: string;
  readonly #user: ShellUser | undefined;
  readonly #scratch: string | undefined;
  readonly #systemMounts: readonly string[];
  readonly #live = new LiveProcesses();

  private constructor(options: ResolvedShellOptions, root: string, user: ShellUser | undefined, scratch: string | undefined) {
    this.#options = options;
    this.#root = root;
    this.#user = user;
    this.#scratch = scratch;
    this.sandboxed = !options.unsafeNoSandbox;
    this.#systemMounts = this.sandboxed ? systemMounts() : [];
  }

  /** Prepares the scratch directory that holds the empty directory and file used as masks. */
  static async create(options: ResolvedShellOptions, root: string, user: ShellUser | undefined): Promise<CommandRunner> {
    if (options.unsafeNoSandbox) return new CommandRunner(options, root, user, undefined);
    const scratch = await mkdtemp(join(tmpdir(), 'weir-shell-'));
    // The sandbox user must read the masks; nobody may write them.
    await chmod(scratch, 0o755);
    await mkdir(join(scratch, 'empty'), { mode: 0o555 });
    await writeFile(join(scratch, 'empty-file'), '', { mode: 0o444 });
    if (options.networkAllow !== undefined) await writeFile(join(scratch, 'forwarder.mjs'), FORWARDER_SCRIPT, { mode: 0o444 });
    return new CommandRunner(options, root, user, scratch);
  }

  /** Commands running now. */
  get running(): number {
    return this.#live.size;
  }

  /**
   * Runs one command and waits until nothing of it is left. Throws `ToolCallError`
   * `PROTECTED_PATH_IS_LINK` before it starts, or `PROTECTED_PATH_REPLACED` after it ended when a
   * protected path is no longer the one that was bound; rejects when it could not be spawned.
   */
  async run(request: CommandRequest): Promise<CommandOutcome> {
    if (!this.sandboxed) return this.#spawn(this.#unconfined(request), request);
    const mounts = await protectedMounts(this.#root, this.#options.protect);
    if (this.#options.networkAllow === undefined) {
      const outcome = await this.#spawn(await this.#sandboxed(request, mounts, undefined), request);
      await verifyProtectedMounts(this.#root, mounts);
      return outcome;
    }
    // The proxy lives exactly as long as the command: started before it, closed (socket removed) after.
    const log = new NetworkLog();
    const directory = await this.#networkDirectory();
    let proxy: FilteringProxy | undefined;
    try {
      proxy = await FilteringProxy.listen(join(directory, 'proxy.sock'), withCallHosts(this.#options.networkAllow, request.extraHosts ?? []), (decision) => {
        log.add(decision);
        request.onNetwork?.(decision);
      });
      const network: SandboxNetwork = { socketPath: proxy.socketPath, forwarderPath: join(this.#scratch!, 'forwarder.mjs'), nodePath: process.execPath };
      const outcome = await this.#spawn(await this.#sandboxed(request, mounts, network), request);
      await verifyProtectedMounts(this.#root, mounts);
      return { ...outcome, network: log.report() };
    } finally {
      await proxy?.close();
      await rm(directory, { recursive: true, force: true });
    }
  }

  /** A directory only the sandbox user (and the harness) can enter, to hold one command's proxy socket. */
  async #networkDirectory(): Promise<string> {
    const directory = await mkdtemp(join(this.#scratch!, 'net-'));
    await chmod(directory, 0o700);
    if (this.#user !== undefined) await chown(directory, this.#user.uid, this.#user.gid);
    return directory;
  }

  #spawn(spec: SpawnSpec, request: CommandRequest): Promise<ProcessOutcome> {
    return runProcess(spec, {
      cwd: request.cwd,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      maxOutputBytes: this.#options.maxOutputBytes,
      killAfterOutputBytes: this.#options.killAfterOutputBytes,
      onOutput: request.onOutput,
      track: this.#live.track,
    });
  }

  /** Kills every running command, waits until each is gone, then removes the scratch directory. */
  async close(): Promise<void> {
    await this.#live.killAll();
    if (this.#scratch !== undefined) await rm(this.#scratch, { recursive: true, force: true });
  }

  async #sandboxed(request: CommandRequest, protectedMounts: readonly ProtectedMount[], network: SandboxNetwork | undefined): Promise<SpawnSpec> {
    const options = this.#options;
    const masks = await hiddenMounts(this.#root, options.hidden, options.hiddenAbsolute);
    return sandboxCommand({
      options,
      root: this.#root,
      cwd: request.cwd,
      user: this.#user,
      protectedMounts,
      maskedDirectories: masks.directories,
      maskedFiles: masks.files,
      emptyDirectory: join(this.#scratch!, 'empty'),
      emptyFile: join(this.#scratch!, 'empty-file'),
      systemMounts: this.#systemMounts,
      command: request.command,
      network,
    });
  }

  #unconfined(request: CommandRequest): SpawnSpec {
    // No sandbox, but still a clean environment: the harness's secrets are not handed over for free.
    return {
      file: '/bin/sh',
      args: ['-c', 'exec "$@" 2>&1', 'weir-unsandboxed', '/bin/bash', '--noprofile', '--norc', '-c', request.command],
      env: { ...sandboxEnvironment(this.#options.env), HOME: homedir() },
    };
  }
}
