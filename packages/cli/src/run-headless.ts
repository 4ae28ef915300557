import type { AgentEvent, ApprovalRequest } from '@weir/core';
import type { CliFlags } from './cli-flags.js';
import { cliLogger } from './cli-logger.js';
import { chooseWeirModel, readConfiguredModel } from './configured-model.js';
import { modelWaits } from './model-waits.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { fileCommandPrompt } from './file-command.js';
import { mcpPromptLine } from './mcp-prompt-command.js';
import { hookedTurn } from './hooked-turn.js';
import { startWeir } from './start-weir.js';
import { terminalStyle } from './terminal-style.js';
import { turnPrinter } from './turn-printer.js';
import { UsageError } from './usage-error.js';

/** What a headless run answers when a call would ask: nobody is there, so it is denied. */
export const HEADLESS_DENIAL = 'weir run is headless, so there is nobody to ask: the call was denied. An allow rule in .weir/settings.json or ~/.weir/settings.json, or --mode, lets such calls run.';

/**
 * `weir run "<prompt>"`: one turn, headless. The answer goes to standard output as it streams
 * (with `--json`, one JSON event per line instead); the `[model]` line, one line per tool call,
 * waits and retries go to standard error. A call that would ask is denied (no prompt), unless a
 * rule or the mode allows it. Ctrl-C cancels the turn (exit 130). Resolves to the exit status.
 */
export async function runHeadless(flags: CliFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const prompt = flags.positionals.join(' ');
  const status = (line: string) => process.stderr.write(`${line}\n`);
  const json = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  const waits = modelWaits(status);
  const workspace = await resolveWorkspace(flags.workspace);
  // --model, else the config's "model" (a project's once the folder is trusted), else the environment.
  const configured = await readConfiguredModel({ workspace, configFlag: flags.config, env });
  const model = chooseWeirModel({ flags, configured, env, onRetry: waits.onRetry });
  status(`[model] ${model.description}`);
  if (flags.json) json({ type: 'model', id: model.id, description: model.description });
  const { escapeForTerminal } = await import('@weir/safety');

  const started = await startWeir({
    workspace,
    model,
    configFlag: flags.config,
    mode: flags.mode,
    approver: (_request: ApprovalRequest) => {
      throw new Error(HEADLESS_DENIAL);
    },
    logger: cliLogger(status, flags.debug),
    session: { continue: flags.continue, resume: flags.resume, title: prompt },
    env,
    noShell: flags.noShell,
    say: status,
  });
  const stop = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    status('[cancelling: Ctrl-C again to quit at once]');
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    status(`[session] ${started.session.id} ${started.resumed ? 'resumed' : 'new'}`);
    if (flags.json) json({ type: 'session', id: started.session.id, resumed: started.resumed });
    const printer = turnPrinter(
      {
        answer: (text) => process.stdout.write(text),
        status,
        style: { ...terminalStyle(process.stderr, env), live: false },
        answerStyle: terminalStyle(process.stdout, env),
      },
      escapeForTerminal,
    );
    const onEvent = (event: AgentEvent) => {
      waits.onEvent(event);
      if (flags.json) json(event);
      else printer.onEvent(event);
    };
    if (started.agent.turnOpen) {
      status('[session] finishing the turn the last run left open');
      await started.agent.resume({ signal: stop.signal, onEvent }).finally(() => waits.stop());
    }
    // `weir run "/name args"`: an MCP server's prompt (`/mcp__<server>__<prompt>`) or a command
    // file's. A path (`/etc/hosts ...`) has a second slash and stays a prompt.
    const fromServer = await mcpPromptLine(started.composed.mcpServers(), prompt);
    if (fromServer.kind === 'error') throw new UsageError(fromServer.message);
    const command = fromServer.kind === 'turn' ? fromServer.content : /^\/[^\s/]+(?:\s|$)/.test(prompt) ? await fileCommandPrompt(started, prompt, status) : prompt;
    if (command === undefined) {
      const names = started.extensions.commands.commands.map((file) => `/${file.name}`);
      throw new UsageError(`${prompt.split(/\s/)[0]} is not a command file (in .weir/commands/ or ~/.weir/commands/); ${names.length === 0 ? 'there are none' : `the commands: ${names.join(', ')}`}. weir's own commands run in the interactive weir only.`);
    }
    const result = await hookedTurn(started, command, { signal: stop.signal, onEvent }, status).finally(() => {
      started.extensions.narrowing.dropPending();
      waits.stop();
      printer.finish();
    });
    status(`[session] ${started.session.id} saved: weir run --resume ${started.session.id} "<prompt>" goes on with it`);
    if ('blocked' in result) return 1;
    if (result.stopReason === 'aborted') return 130;
    if (result.stopReason !== 'stop') {
      status(`[stopped: ${result.stopReason}]`);
      return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    await started.close();
  }
}
