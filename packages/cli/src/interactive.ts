import type { AgentEvent, Content, Message, TurnResult, Usage } from '@weir/core';
import type { CliFlags } from './cli-flags.js';
import { cliLogger } from './cli-logger.js';
import { chooseWeirModel, readConfiguredModel } from './configured-model.js';
import { lineReader } from './line-reader.js';
import { modelWaits } from './model-waits.js';
import { oneLineError } from './one-line-error.js';
import { untrustedProjectFiles } from './project-trust.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { runSlashCommand } from './slash-commands.js';
import { fileCommandPrompt } from './file-command.js';
import { mcpPromptLine } from './mcp-prompt-command.js';
import { hookedTurn } from './hooked-turn.js';
import type { StartedWeir } from './start-weir.js';
import { terminalStyle } from './terminal-style.js';
import { trustFolder } from './trust-folder.js';
import { turnPrinter } from './turn-printer.js';
import { userSettingsFile } from './weir-home.js';

const PROMPT = '> ';
const EARLIER_LINES = 6;

/**
 * `weir`: an interactive session in the workspace. The first prompt is shown as soon as the model is
 * known; the harness (plugins, MCP servers) and the session load behind it, and the first message
 * waits for them. Each line is a turn, or a slash command (`/help`). Ctrl-C during a turn cancels it,
 * tools included, and the session goes on; a second Ctrl-C before it has ended, or Ctrl-C at the
 * prompt, exits with status 130. Ctrl-D or `/exit` ends with 0. Resolves to the exit status.
 */
export async function runInteractive(flags: CliFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const out = process.stdout;
  const style = terminalStyle(out, env);
  const reader = lineReader(process.stdin, out);
  // A status line also ends the live redraw of a running tool's line: the redraw must not erase it.
  let printerDetach = () => {};
  const say = (line: string) => {
    printerDetach();
    reader.print(line);
  };
  const workspace = await resolveWorkspace(flags.workspace);
  const waits = modelWaits(say);
  // Trust comes before anything of the project loads: it is the first question when there is one.
  const settingsFile = userSettingsFile(env);
  const waiting = flags.config === undefined ? await untrustedProjectFiles(workspace, settingsFile) : [];
  // --model, else the config's "model" (the project's only once the folder is trusted), else the environment.
  let model = chooseWeirModel({ flags, configured: await readConfiguredModel({ workspace, configFlag: flags.config, env, trusted: waiting.length === 0 }), env, onRetry: waits.onRetry });
  say(`${style.dim('[model]')} ${model.description}`);
  say(style.dim(`[workspace] ${workspace}  (/help for the commands)`));

  if (waiting.length > 0) {
    say(`[trust] This folder has project settings that can load plugins, start commands or relax rules: ${waiting.join(', ')}.`);
    const answer = await reader.read('Trust this folder? They will apply from now on (y/N) ');
    if (answer.kind === 'interrupt') return 130;
    if (answer.kind === 'line' && /^\s*y(es)?\s*$/i.test(answer.line)) {
      const folder = await trustFolder(settingsFile, workspace);
      say(`[trust] ${folder} is trusted (saved in ${settingsFile})`);
      // The project's config counts now: its "model" too (--model still wins).
      const configured = await readConfiguredModel({ workspace, configFlag: flags.config, env, trusted: true });
      if (configured !== undefined) {
        model = chooseWeirModel({ flags, configured, env, onRetry: waits.onRetry });
        say(`${style.dim('[model]')} ${model.description}`);
      }
    } else say('[trust] not trusted: the project config is not loaded, and its settings can only tighten');
  }

  // Safety (the prompt, the escaping) loads behind the first prompt, like the rest of the harness.
  const safetyModule = import('@weir/safety');
  let turn: AbortController | undefined;
  const prompter = safetyModule.then(({ terminalApprover }) => terminalApprover({ onInterrupt: () => turn?.abort() }));
  // The harness's modules (core, tools, safety, session) load behind the prompt too.
  const starting = import('./start-weir.js').then(({ startWeir }) => startWeir({
    workspace,
    model,
    configFlag: flags.config,
    mode: flags.mode,
    approver: async (request) => {
      printerDetach();
      return (await prompter)(request);
    },
    logger: cliLogger(say, flags.debug),
    session: { continue: flags.continue, resume: flags.resume },
    env,
    noShell: flags.noShell,
    say,
  }));
  // A failure to start is reported when the first line needs the harness (or at exit).
  starting.catch(() => undefined);

  let weir: StartedWeir | undefined;
  // The session is shown as soon as it is open, without waiting for a line.
  const opened = starting.then((started) => {
    weir = started;
    say(style.dim(`[session] ${started.session.id} ${started.resumed ? 'resumed' : 'new'}`));
    if (started.resumed) showEarlier(started.agent.messages, say);
    return started;
  });
  opened.catch(() => undefined);
  const ready = () => opened;

  const turns: TurnResult[] = [];
  const compactions: Usage[] = [];
  let interrupts = 0;
  const onSigint = () => {
    // Outside a turn the prompt (readline, raw) gets Ctrl-C as a key; a signal here came between two
    // prompts (a turn just ended): it is Ctrl-C at the prompt.
    if (turn === undefined) {
      out.write('\n');
      process.exit(130);
    }
    interrupts += 1;
    if (interrupts > 1) {
      out.write('\n[interrupted]\n');
      process.exit(130);
    }
    say('[cancelling the turn: Ctrl-C again to quit]');
    turn.abort();
  };
  process.on('SIGINT', onSigint);

  const printer = turnPrinter(
    {
      answer: (text) => out.write(text),
      status: (line) => out.write(`${line}\n`),
      redraw: (up, line) => out.write(`\u001b[${up}A\r\u001b[J${line}\n`),
      style,
    },
    // Used only once a turn runs, by which time safety has loaded (the harness waited for it).
    (text) => escape(text),
  );
  let escape = (text: string) => text;
  void safetyModule.then((module) => (escape = module.escapeForTerminal)).catch(() => undefined);
  printerDetach = printer.detach;
  const onEvent = (event: AgentEvent) => {
    waits.onEvent(event);
    printer.onEvent(event);
  };

  let status = 0;
  try {
    for (;;) {
      const read = await reader.read(PROMPT);
      if (read.kind === 'interrupt') {
        status = 130;
        break;
      }
      if (read.kind === 'end') break;
      const line = read.line.trim();
      if (line === '') continue;
      let started: StartedWeir;
      try {
        started = await ready();
      } catch (error) {
        say(`[error] ${oneLineError(error)}`);
        status = 1;
        break;
      }
      // An MCP server's prompt (`/mcp__<server>__<prompt> args`) or a command file's `/name args` is a
      // turn with its prompt; any other `/` line is weir's own command.
      let prompt: Content | undefined = line;
      if (line.startsWith('/')) {
        const fromServer = await mcpPromptLine(started.composed.mcpServers(), line);
        if (fromServer.kind === 'error') {
          say(`[error] ${fromServer.message}`);
          continue;
        }
        prompt = fromServer.kind === 'turn' ? fromServer.content : await fileCommandPrompt(started, line, say);
      }
      if (prompt === undefined) {
        const ask = async (question: string) => {
          const answer = await reader.read(question);
          return answer.kind === 'line' ? answer.line : undefined;
        };
        if ((await runSlashCommand(line, { weir: started, model, turns, compactions, say, ask })) === 'exit') break;
        continue;
      }
      turn = new AbortController();
      interrupts = 0;
      try {
        if (started.agent.turnOpen) {
          say('[session] finishing the turn the last run left open');
          await started.agent.resume({ signal: turn.signal, onEvent });
        }
        const result = await hookedTurn(started, prompt, { signal: turn.signal, onEvent }, say);
        if (!('blocked' in result)) {
          turns.push(result);
          if (result.stopReason === 'aborted') say('[cancelled]');
          else if (result.stopReason !== 'stop') say(`[stopped: ${result.stopReason}]`);
        }
      } catch (error) {
        // A failed model call or session write: one line, and the session goes on.
        say(`[error] ${oneLineError(error)}`);
      } finally {
        started.extensions.narrowing.dropPending();
        waits.stop();
        printer.finish();
        turn = undefined;
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    const started = weir ?? (await opened.catch(() => undefined));
    if (started !== undefined) {
      await started.close().catch(() => undefined);
      say(style.dim(`[session] ${started.session.id} saved: weir --resume ${started.session.id} goes on with it`));
    }
  }
  return status;
}

/** The end of a resumed conversation, a short line per message. */
function showEarlier(messages: readonly Message[], say: (line: string) => void): void {
  const lines = messages.flatMap((message) => {
    const text = message.content.replace(/\s*\n\s*/g, ' ⏎ ');
    const short = text.length <= 100 ? text : `${text.slice(0, 99)}…`;
    if (message.role === 'user') return [`  > ${short}`];
    if (message.role === 'assistant' && message.content !== '') return [`  ${short}`];
    return [];
  });
  if (lines.length === 0) return;
  say(`[earlier] ${lines.length} line${lines.length === 1 ? '' : 's'} of this conversation${lines.length > EARLIER_LINES ? `, the last ${EARLIER_LINES}` : ''}:`);
  for (const line of lines.slice(-EARLIER_LINES)) say(line);
}
