import type { TurnResult, Usage } from '@weir/core';
import type { SafetyMode } from '@weir/safety';
import type { ChosenModel } from './choose-model.js';
import { oneLineError } from './one-line-error.js';
import { contextLines } from './context-lines.js';
import { hookListLines } from './hook-list.js';
import { mcpPromptHelp } from './mcp-prompt-help.js';
import { describeRewind } from './rewind-command.js';
import type { StartedWeir } from './start-weir.js';

/** What a slash command can reach. */
export interface SlashContext {
  readonly weir: StartedWeir;
  readonly model: ChosenModel;
  /** The turns of this run, for `/usage`. */
  readonly turns: readonly TurnResult[];
  /** The usage of this run's `/compact` summary calls, for `/usage` (`/compact` adds to it). */
  readonly compactions?: Usage[];
  readonly say: (line: string) => void;
  /** Asks one line at the prompt (`/rewind` without a turn); `undefined` on Ctrl-C or Ctrl-D. */
  readonly ask?: (question: string) => Promise<string | undefined>;
}

/** What the loop does after a command. */
export type SlashOutcome = 'continue' | 'exit';

/** The commands, for `/help`. */
export const SLASH_COMMANDS: readonly (readonly [string, string])[] = [
  ['/help', 'this list'],
  ['/tools', 'the tools the model can call, with their tier and where they come from'],
  ['/plugins', 'the plugins loaded, and what the config brought'],
  ['/hooks', 'every command hook of the settings files, where it comes from, and whether it runs'],
  ['/context', 'the instructions (AGENTS.md), skills, command files and subagents loaded, from where, and their size'],
  ['/reload', "unload the config's plugins, MCP servers and plugin bundles and load them again, with the code now on disk"],
  ['/model', 'the model in use'],
  ['/mode [mode]', 'the safety mode; with a mode (read-only, ask, auto, allow-all-unsafe), switch to it'],
  ['/usage', 'tokens used by the turns of this run'],
  ['/compact [text]', 'replace the older part of the conversation by a summary now (the instructions say what it should keep); PreCompact hooks may stop it'],
  ['/rewind [n|r]', 'the turns (prompt, files changed, time); go back to the end of turn n (files and conversation; add files or conversation for one), or r to redo'],
  ['/exit', 'end the session (Ctrl-D does too; Ctrl-C at the prompt exits with status 130)'],
];

/**
 * Runs a slash command line (`/reload`, `/mode auto`). An unknown command says so and lists the
 * commands; a command that fails says why in one line. Never rejects.
 */
export async function runSlashCommand(line: string, context: SlashContext): Promise<SlashOutcome> {
  const [command = '', ...args] = line.trim().split(/\s+/);
  const { weir, say } = context;
  const { harness } = weir.composed;
  try {
    switch (command) {
      case '/help':
        for (const [name, what] of SLASH_COMMANDS) say(`  ${name.padEnd(13)} ${what}`);
        for (const file of weir.extensions.commands.commands) {
          const name = `/${file.name}${file.argumentHint === undefined ? '' : ` ${file.argumentHint}`}`;
          say(`  ${name.padEnd(13)} ${file.description} (${file.source})`);
        }
        for (const line of await mcpPromptHelp(weir.composed.mcpServers())) say(line);
        say('  Anything else is a message to the model.');
        return 'continue';
      case '/tools': {
        for (const name of harness.tools.names()) {
          const tool = harness.tools.get(name);
          const from = tool?.source.server !== undefined ? `MCP server ${tool.source.server}` : tool?.source.plugin !== undefined ? `plugin ${tool.source.plugin}` : 'the harness';
          say(`  ${name.padEnd(24)} ${(tool?.tier ?? 'dangerous').padEnd(10)} ${from}`);
        }
        return 'continue';
      }
      case '/plugins': {
        const configured = new Map(weir.composed.loaded().map((entry) => [entry.plugin, entry] as const));
        for (const name of harness.plugins()) {
          const entry = configured.get(name);
          say(`  ${name}${entry === undefined ? ' (built in)' : ` (${entry.kind === 'plugin' ? `package ${entry.source}` : `MCP server ${entry.source}`}, from the config)`}`);
        }
        return 'continue';
      }
      case '/hooks': {
        const { hookLabel } = await import('@weir/hooks');
        for (const line of hookListLines(weir.composed.hooks.hooks, hookLabel)) say(line);
        return 'continue';
      }
      case '/context':
        for (const line of contextLines(weir.extensions, weir.extensions.workspace)) say(line);
        return 'continue';
      case '/reload': {
        say('[reload] reading the config again');
        const config = await weir.rereadConfig();
        await weir.composed.reload(config, say);
        say(`[reload] done: ${harness.tools.names().length} tools`);
        return 'continue';
      }
      case '/model':
        say(`[model] ${context.model.description}`);
        say(`[model] ${weir.compaction}`);
        return 'continue';
      case '/compact':
        await compact(line.trim().slice(command.length).trim(), context);
        return 'continue';
      case '/mode': {
        const { policy } = weir.composed;
        if (args[0] !== undefined) policy.setMode(args[0] as SafetyMode);
        say(`[mode] ${policy.mode}`);
        return 'continue';
      }
      case '/usage': {
        const compactions = context.compactions ?? [];
        const usage = [...context.turns.map((turn) => turn.usage), ...compactions].filter((item): item is Usage => item !== undefined);
        const what = `${plural(context.turns.length, 'turn')}${compactions.length === 0 ? '' : ` and ${plural(compactions.length, '/compact summary', '/compact summaries')}`}`;
        if (usage.length === 0) {
          say(`[usage] ${what}; the model reported no token usage`);
          return 'continue';
        }
        const input = usage.reduce((sum, item) => sum + item.inputTokens, 0);
        const output = usage.reduce((sum, item) => sum + item.outputTokens, 0);
        say(`[usage] ${what}: ${input} input tokens, ${output} output tokens`);
        return 'continue';
      }
      case '/rewind':
        await rewind(args, context);
        return 'continue';
      case '/exit':
      case '/quit':
        return 'exit';
      default:
        say(`[error] Unknown command ${command}. The commands: ${SLASH_COMMANDS.map(([name]) => name.split(' ')[0]).join(', ')}.`);
        return 'continue';
    }
  } catch (error) {
    say(`[error] ${command}: ${oneLineError(error)}`);
    return 'continue';
  }
}

/** `/compact [instructions]`: the manual trigger; what happened in one line. */
async function compact(instructions: string, context: SlashContext): Promise<void> {
  const { weir, say } = context;
  const before = weir.agent.messages.length;
  const result = await weir.agent.compact(instructions === '' ? {} : { instructions });
  switch (result.status) {
    case 'compacted':
      if (result.usage !== undefined) context.compactions?.push(result.usage);
      say(`[compact] ${result.replaced} earlier messages became a summary (by ${result.model}); the conversation is ${weir.agent.messages.length} messages, was ${before}`);
      return;
    case 'cancelled':
      say(`[compact] not compacted: ${result.by === PRE_COMPACT_TAP ? 'a PreCompact hook stopped it' : `"${result.by}" stopped it`}: ${result.reason}`);
      return;
    case 'skipped':
      say(`[compact] nothing done: ${result.reason}`);
  }
}

/** The name of @weir/hooks' tap on the compaction hook. */
const PRE_COMPACT_TAP = 'hooks PreCompact';

const SCOPES = new Set(['files', 'conversation', 'both']);

/** `/rewind`: lists the turns and asks which (or takes `n [files|conversation] [force]`, or `r`), then rewinds or redoes. */
async function rewind(args: readonly string[], context: SlashContext): Promise<void> {
  const { weir, say } = context;
  const { checkpoints } = weir;
  let choice = args[0];
  if (choice === undefined) {
    const { escapeForTerminal } = await import('@weir/safety');
    const turns = checkpoints.turns();
    if (turns.length === 0 && !checkpoints.canRedo()) return say('[rewind] no turn to go back to yet');
    say('[rewind] the turns of this session:');
    say('  0  before the first turn');
    for (const turn of turns) {
      const prompt = turn.prompt.replace(/\s+/g, ' ');
      const files = turn.files.length === 0 ? 'no files changed' : `changed ${turn.files.join(', ')}`;
      say(escapeForTerminal(`  ${turn.turn}  ${turn.at.slice(11, 19)}  ${prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt}  (${files})`));
    }
    if (checkpoints.canRedo()) say('  r  redo: take the last rewind back');
    choice = (await context.ask?.('Rewind to the end of which turn? (a number, r to redo, Enter to cancel) '))?.trim();
    if (choice === undefined || choice === '') return say('[rewind] nothing done');
  }
  const options = args.slice(1);
  const force = options.includes('force');
  const scope = options.find((option) => SCOPES.has(option)) ?? 'both';
  const unknown = options.find((option) => option !== 'force' && !SCOPES.has(option));
  if (unknown !== undefined) return say(`[error] /rewind: unknown option ${unknown} (files, conversation, both or force)`);
  let report;
  if (choice === 'r' || choice === 'redo') report = await checkpoints.redo({ force });
  else if (/^\d+$/.test(choice)) report = await checkpoints.rewind({ toTurn: Number(choice), scope: scope as 'files' | 'conversation' | 'both', force });
  else return say(`[error] /rewind: ${JSON.stringify(choice)} is not a turn number or r`);
  for (const line of describeRewind(report.kind === 'redo' ? '[redo]' : '[rewind]', report)) say(line);
  // The agent's history is the session's: after a cut (or its undoing) it is read again.
  if (report.conversation) await weir.resetAgent();
}

/** "1 turn", "2 turns". */
function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
