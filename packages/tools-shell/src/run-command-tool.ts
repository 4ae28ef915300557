import { defineTool, ToolCallError, type ToolExecution } from '@weir/core';
import { normaliseHost } from './network/host-pattern.js';
import type { CommandRunner } from './command-runner.js';
import { KILL_GRACE_MS, type KillReason } from './run-process.js';
import { resolveWorkingDirectory } from './workspace-mounts.js';
import type { NetworkReport } from './network/network-log.js';
import { addNetworkEvent, type ActiveSpan } from './network/network-span-events.js';

/** The value of a `run_command` result. */
export interface CommandResult {
  /** The exit code, or `null` when a signal ended the command. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** stdout and stderr interleaved as written; head and tail kept when over the cap. */
  readonly output: string;
  /** True when the middle of the output was elided. */
  readonly truncated: boolean;
  readonly elidedBytes: number;
  readonly outputBytes: number;
  /** Set when the command was killed: its deadline passed, the call was aborted, or it wrote too much. */
  readonly killed: KillReason | null;
  readonly durationMs: number;
  /** False only under `unsafeNoSandbox`. */
  readonly sandboxed: boolean;
  /** With `network: { allow }`: the hosts the proxy let through and the ones it refused during the command. */
  readonly network?: NetworkReport;
}

/** Progress as the core reports it (issue 13); absent on a core without it. */
type ProgressReporter = (update: { readonly message?: string }) => void;

export interface RunCommandDeps {
  readonly runner: CommandRunner;
  readonly root: string;
  readonly timeoutMs: number;
  /** The allow-list's entries, named in the description; `undefined` when the network is not filtered. */
  readonly networkAllow?: readonly string[];
  /** The call may name more hosts (`network.perCallHosts`): adds the `network` parameter. */
  readonly perCallHosts?: boolean;
  /** The span active when a call starts (OpenTelemetry, when loaded): each network decision is an event on it. */
  readonly activeSpan?: ActiveSpan;
}

/** The `run_command` tool (tier `dangerous`). A command that ran is a success carrying its exit code; only one that could not start fails. */
export function runCommandTool(deps: RunCommandDeps) {
  const network = deps.networkAllow === undefined ? 'no network unless enabled' : `network only over HTTP(S) through a proxy to ${deps.networkAllow.join(', ')} (no DNS, no raw IP; the result lists refused hosts)`;
  const where = deps.runner.sandboxed ? `inside a sandbox: the workspace is writable, the system read-only, /tmp private, ${network}, no access to the home directory` : 'WITHOUT a sandbox';
  return defineTool({
    name: 'run_command',
    description:
      `Runs a bash command in the workspace ${where}. ` +
      'stdout and stderr come back interleaved, with the exit code; long output keeps its head and tail. ' +
      `stdin is empty (no interactive programs). Deadline: ${deps.timeoutMs} ms unless timeoutMs asks for less.`,
    tier: 'dangerous',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'The bash command line.' },
        cwd: { type: 'string', description: 'Working directory relative to the workspace root (default: the root).' },
        timeoutMs: { type: 'integer', minimum: 1, description: `Deadline in milliseconds, at most ${deps.timeoutMs}.` },
        ...(deps.perCallHosts === true
          ? { network: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 32, description: 'Exact host names this command needs beyond the allowed ones (asked for or allowed per host by the safety rules).' } }
          : {}),
      },
      required: ['command'],
      additionalProperties: false,
    },
    // The command's own deadline comes first and keeps the output; the core's is the backstop.
    timeoutMs: deps.timeoutMs + KILL_GRACE_MS + 5_000,
    output: { render: renderCommandResult },
    async execute(args, exec): Promise<CommandResult> {
      const cwd = await resolveWorkingDirectory(deps.root, args.cwd);
      const progress = (exec as ToolExecution & { readonly progress?: ProgressReporter }).progress;
      // Taken now: the proxy decides in its own socket callbacks, outside the call's context.
      const span = deps.activeSpan?.();
      const outcome = await deps.runner.run({
        command: args.command,
        cwd,
        timeoutMs: Math.min(args.timeoutMs ?? deps.timeoutMs, deps.timeoutMs),
        extraHosts: callHosts(args),
        signal: exec.signal,
        onOutput: typeof progress === 'function' ? (text) => progress({ message: text }) : undefined,
        onNetwork: (decision) => {
          if (decision.allowed) exec.logger.info({ callId: exec.callId, host: decision.host, port: decision.port, address: decision.address }, 'tools-shell: network allowed');
          else exec.logger.warn({ callId: exec.callId, host: decision.host, port: decision.port, reason: decision.reason }, 'tools-shell: network refused');
          addNetworkEvent(span, decision);
        },
      });
      return {
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        output: outcome.output,
        truncated: outcome.elidedBytes > 0,
        elidedBytes: outcome.elidedBytes,
        outputBytes: outcome.outputBytes,
        killed: outcome.killed ?? null,
        durationMs: outcome.durationMs,
        sandboxed: deps.runner.sandboxed,
        ...(outcome.network === undefined ? {} : { network: outcome.network }),
      };
    },
  });
}

/** The `network` argument, when the schema has it (`perCallHosts`); a host that is not a name fails the call. */
function callHosts(args: object): readonly string[] {
  const hosts = (args as { network?: unknown }).network;
  if (!Array.isArray(hosts)) return [];
  for (const host of hosts as string[]) {
    if (host.startsWith('*') || normaliseHost(host) === undefined) throw new ToolCallError('INVALID_ARGUMENTS', `network: ${JSON.stringify(host)} is not an exact host name.`);
  }
  return hosts as string[];
}

/** What the model reads: the output, then one status line. */
export function renderCommandResult(result: CommandResult): string {
  const status =
    result.killed === 'deadline' ? `killed: the deadline passed after ${result.durationMs} ms`
    : result.killed === 'output' ? `killed: it wrote more than the output limit (${result.outputBytes} bytes)`
    : result.killed === 'abort' ? 'killed: the call was cancelled'
    : result.signal !== null ? `ended by signal ${result.signal}`
    : `exit code ${result.exitCode}`;
  const body = result.output === '' ? '(no output)\n' : result.output.endsWith('\n') ? result.output : `${result.output}\n`;
  const refused = result.network?.refused ?? [];
  const network = refused.length === 0 ? '' : `[network refused: ${refused.map((entry) => `${entry.host}:${entry.port} (${entry.reason})`).join('; ')}]\n`;
  return `${body}${network}[${status}${result.sandboxed ? '' : '; ran WITHOUT a sandbox'}]`;
}
