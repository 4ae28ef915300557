import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

/** What `weir` was asked to do. */
export type CliCommand = 'interactive' | 'run' | 'sessions' | 'trust' | 'rewind' | 'acp' | 'help' | 'version';

/** The parsed command line. */
export interface CliFlags {
  readonly command: CliCommand;
  /** The prompt words of `weir run`, the folder of `weir trust`. */
  readonly positionals: readonly string[];
  readonly workspace: string | undefined;
  readonly config: string | undefined;
  readonly model: string | undefined;
  readonly baseURL: string | undefined;
  readonly mode: string | undefined;
  readonly continue: boolean;
  readonly resume: string | undefined;
  readonly json: boolean;
  readonly debug: boolean;
  /** `--no-shell`: no `run_command`, and no line saying why the shell is off. */
  readonly noShell: boolean;
  /** weir rewind: `--turn N`, `--files`, `--conversation`, `--redo`, `--force`. */
  readonly rewind: { readonly turn: number | undefined; readonly files: boolean; readonly conversation: boolean; readonly redo: boolean; readonly force: boolean };
}

export const USAGE = `Usage:
  weir [flags]                     an interactive session in this folder (the workspace)
  weir run [flags] "<prompt>"      one turn, headless; prints the answer
  weir sessions [--workspace <d>]  the sessions of this folder, newest first
  weir sessions gc                 remove the stored images no session uses any more
  weir trust [<folder>]            trust a folder: its weir.config.json and .weir/settings.json count
  weir rewind <session> --turn N [--files] [--conversation] [--force]
                                   put the files and/or the conversation back as they were after turn N
  weir rewind <session> --redo     take the last rewind back
  weir acp [flags]                 an Agent Client Protocol agent on stdio, for an editor (Zed, JetBrains IDEs)
  weir plugin add|list|remove      plugin bundles: tools, skills, hooks, commands, agents, MCP servers
  weir --version | --help

Flags:
  --workspace <folder>  the workspace (default: the current folder)
  --config <file>       a config file to use (default: <workspace>/weir.config.json, once trusted)
  --model <id>          anthropic:<id> (ANTHROPIC_API_KEY), openai:<id> or a bare id for an OpenAI-compatible endpoint, mock:rules (or "model" in weir.config.json, or ANTHROPIC_MODEL, OPENAI_MODEL)
  --base-url <url>      its endpoint (or OPENAI_BASE_URL); the key comes from OPENAI_API_KEY
  --mode <mode>         safety mode: read-only, ask (default), auto, allow-all-unsafe
  -c, --continue        go on with the last session
  --resume <id>         go on with the session <id>
  --json                weir run: one JSON event per line on standard output
  --no-shell            no run_command (the shell tool runs commands in a bubblewrap sandbox where that works)
  --turn <n>            weir rewind: the turn to go back to (0: before the first)
  --files, --conversation  weir rewind: only the files, or only the conversation (default: both)
  --redo                weir rewind: undo the last rewind
  --force               weir rewind: also overwrite files changed since weir wrote them
  --debug               the stack of a failure`;

const OPTIONS = {
  workspace: { type: 'string' },
  config: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  mode: { type: 'string' },
  continue: { type: 'boolean', short: 'c' },
  resume: { type: 'string' },
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  'no-shell': { type: 'boolean' },
  turn: { type: 'string' },
  files: { type: 'boolean' },
  conversation: { type: 'boolean' },
  redo: { type: 'boolean' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** What each flag with a value takes, as the usage text names it. */
const PLACEHOLDERS: Readonly<Record<string, string>> = { workspace: '<folder>', config: '<file>', model: '<id>', 'base-url': '<url>', mode: '<mode>', resume: '<id>', turn: '<n>' };

const COMMANDS = new Set(['run', 'sessions', 'trust', 'rewind', 'acp']);

/**
 * Parses weir's command line strictly: an unknown flag, a flag missing its value or given an
 * empty one (`--workspace=`), an unknown command or a missing prompt throws a `UsageError` (exit
 * status 2) naming it.
 */
export function parseCliFlags(args: readonly string[]): CliFlags {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(`${firstSentence(error.message)} Run weir --help for the flags.`);
    }
    throw error;
  }
  const { values, positionals } = parsed;
  for (const [name, option] of Object.entries(OPTIONS)) {
    const value = (values as Record<string, unknown>)[name];
    // `--workspace=` would run in the current folder, `--resume=` look for a session named "": a value was meant.
    if (option.type === 'string' && typeof value === 'string' && value.trim() === '') {
      throw new UsageError(`--${name} needs a value, and it was given an empty one (--${name}=${PLACEHOLDERS[name] ?? '<value>'}). Run weir --help for the flags.`);
    }
  }
  const [first, ...rest] = positionals;
  let command: CliCommand = 'interactive';
  let words: string[] = positionals;
  if (values.help) command = 'help';
  else if (values.version) command = 'version';
  else if (first !== undefined) {
    if (!COMMANDS.has(first)) throw new UsageError(`Unknown command "${first}" (expected run, sessions, trust, rewind or acp; a prompt goes after weir run).`);
    command = first as CliCommand;
    words = rest;
  }
  if (command === 'run' && words.join(' ').trim() === '') {
    throw new UsageError('weir run needs a prompt: weir run "<prompt>".');
  }
  if (command === 'trust' && words.length > 1) throw new UsageError('weir trust takes one folder.');
  if (command === 'sessions' && words.length > 0 && !(words.length === 1 && words[0] === 'gc')) {
    throw new UsageError('weir sessions takes no arguments but gc (weir sessions gc removes the images no session uses).');
  }
  if (command === 'acp' && (words.length > 0 || values.workspace !== undefined || values.continue === true || values.resume !== undefined || values.json === true)) {
    throw new UsageError('weir acp takes no arguments, --workspace, --continue, --resume or --json: the editor names the folder and the session.');
  }
  const turn = values.turn === undefined ? undefined : /^\d+$/.test(values.turn) ? Number(values.turn) : Number.NaN;
  if (command === 'rewind') {
    if (words.length !== 1) throw new UsageError('weir rewind takes one session id: weir rewind <session> --turn N (weir sessions lists them).');
    if (values.redo === true ? turn !== undefined || values.files === true || values.conversation === true : turn === undefined) {
      throw new UsageError('weir rewind needs --turn N (with --files or --conversation to rewind only those), or --redo alone.');
    }
    if (Number.isNaN(turn)) throw new UsageError(`--turn must be a turn number (0 or more), got ${JSON.stringify(values.turn)}.`);
  } else if ([values.turn, values.files, values.conversation, values.redo, values.force].some((value) => value !== undefined)) {
    throw new UsageError('--turn, --files, --conversation, --redo and --force go with weir rewind.');
  }
  if (values.continue === true && values.resume !== undefined) throw new UsageError('Use --continue or --resume <id>, not both.');
  return {
    command,
    positionals: words,
    workspace: values.workspace,
    config: values.config,
    model: values.model,
    baseURL: values['base-url'],
    mode: values.mode,
    continue: values.continue === true,
    resume: values.resume,
    json: values.json === true,
    debug: values.debug === true,
    noShell: values['no-shell'] === true,
    rewind: { turn, files: values.files === true, conversation: values.conversation === true, redo: values.redo === true, force: values.force === true },
  };
}

function firstSentence(message: string): string {
  const end = message.search(/\.(\s|$)/);
  return end === -1 ? `${message}.` : message.slice(0, end + 1);
}
