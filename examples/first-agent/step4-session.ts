/**
 * Step 4: a conversation that survives restarting the program. Every message, every tool call's
 * start and result and the end of every turn go to a session: one append-only JSONL file per
 * conversation, made durable before a side effect and at the end of each turn, so a closed terminal
 * or a killed process loses nothing that was acknowledged. The first run prints the session id;
 * `--resume <id>` continues that conversation (the model gets the whole history back), after
 * showing the end of it. A turn the last process left half done is finished first.
 *
 * Sessions live in examples/first-agent/.sessions (or `--dir <folder>`); `--list` lists them. The
 * tools read ./workspace (or `--workspace <folder>`).
 * Run: `npx tsx --conditions=@weir/source examples/first-agent/step4-session.ts [lines...]`,
 * then `... step4-session.ts --resume <id> [lines...]`.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgent, createHarness, type AgentEvent, type Message, type Session } from '@weir/core';
import { createFileSessionStore, type SessionStore } from '@weir/session';
import { fsTools } from '@weir/tools-fs';
import { chooseModel } from './cli/choose-model.js';
import { parseFlags } from './cli/parse-flags.js';
import { runProgram } from './cli/run-program.js';
import { oneLine, printEvent } from './cli/run-lines.js';

const USAGE = 'step4-session.ts [--resume <id>] [--dir <folder>] [--list] [--workspace <folder>] [--debug] [--] [lines...]';
const FIRST_LINES = ['list dir .', 'read file notes.txt'];
const RESUMED_LINES = ['read file todo.md', 'Thanks, that is all for today.'];
// Lines of the earlier conversation shown on --resume; the model gets all of it.
const SHOWN_LINES = 10;
const SHOWN_CHARS = 100;

await runProgram(async () => {
  const { values, positionals } = parseFlags(USAGE, {
    resume: { type: 'string' },
    dir: { type: 'string' },
    list: { type: 'boolean' },
    workspace: { type: 'string' },
  });
  if (values.help) return console.log(`Usage: ${USAGE}`);
  const dir = values.dir ?? fileURLToPath(new URL('./.sessions/', import.meta.url));
  const root = values.workspace ?? fileURLToPath(new URL('./workspace/', import.meta.url));
  const store = createFileSessionStore(dir);

  if (values.list) {
    for (const summary of await store.list()) {
      console.log(`${summary.id}  ${summary.updated}  ${summary.messageCount} messages  ${summary.corrupt ? '(damaged) ' : ''}${summary.title ?? ''}`);
    }
    return;
  }

  const { model, description, progress } = await chooseModel();
  console.error(`[model] ${description}`);
  const harness = createHarness();
  // Read-only file tools (read_file, list_dir, find_files, search_files), confined to the workspace.
  await harness.use(fsTools({ root }));
  const session = await openSession(store, dir, values.resume);
  const lines = positionals.length > 0 ? positionals : values.resume === undefined ? FIRST_LINES : RESUMED_LINES;
  const agent = createAgent({
    model,
    harness,
    session,
    system: 'You can read files and list folders of a small workspace with your tools. Answer in the language of the user.',
    maxSteps: 8,
  });

  // Ctrl-C stops the running turn; the session records that it was aborted and stays resumable.
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  const onEvent = (event: AgentEvent) => {
    progress.onEvent(event);
    printEvent(event);
  };

  try {
    if (values.resume !== undefined) showEarlier(agent.messages);
    for (const call of agent.interrupted) {
      console.log(`[interrupted] ${call.toolName}: ${call.started ? 'it may or may not have run' : 'it never ran'}; the model is told so`);
    }
    if (agent.turnOpen) {
      const last = agent.messages.at(-1);
      console.log(last?.role === 'user' ? `[unanswered] ${short(last.content)}: asking the model again` : '[resuming the turn the last run left unfinished]');
      await agent.resume({ signal: stop.signal, stream: false, onEvent }).finally(progress.stop);
    }
    for (const line of lines) {
      if (stop.signal.aborted) break;
      console.log(`[user] ${line}`);
      const result = await agent.turn(line, { signal: stop.signal, stream: false, onEvent }).finally(progress.stop);
      if (result.stopReason !== 'stop') console.log(`[stopped: ${result.stopReason}]`);
    }
  } finally {
    await session.close();
    await harness.close();
    console.log(`[session] ${session.id} saved. Continue it with --resume ${session.id}`);
  }
});

/** A new session, or the one to resume. A failure (no such session, locked, damaged) throws: runProgram prints it. */
async function openSession(store: SessionStore, dir: string, id: string | undefined): Promise<Session> {
  const opened = id === undefined ? await store.create() : await store.open(id);
  const near = relative(process.cwd(), dir);
  const where = near === '' ? '.' : near.startsWith('..') ? dir : near;
  console.log(`[session] ${opened.id} ${id === undefined ? 'new' : 'resumed'} (in ${where})`);
  return opened;
}

/** The end of the earlier conversation, one short line per message. */
function showEarlier(messages: readonly Message[]): void {
  const shown = messages.map(describe).filter((line) => line !== undefined);
  const hidden = Math.max(0, shown.length - SHOWN_LINES);
  // The counts say what is shown: an answer that only called tools shows as its tool lines, and
  // the system message not at all.
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}, shown as ${shown.length} line${shown.length === 1 ? '' : 's'}`;
  console.log(`[earlier] ${count}${hidden > 0 ? `; the last ${SHOWN_LINES}:` : ':'}`);
  for (const line of shown.slice(hidden)) console.log(`  ${line}`);
}

function describe(message: Message): string | undefined {
  switch (message.role) {
    case 'user':
      return short(`[user] ${message.content}`);
    case 'assistant':
      // An answer that only called tools shows as its tool lines.
      return message.content === '' ? undefined : short(`[assistant] ${message.content}`);
    case 'tool':
      return short(`[tool:${message.toolName}] -> ${message.isError ? `ERR ${message.content}` : 'ok'}`);
    default:
      return undefined;
  }
}

function short(text: string): string {
  const line = oneLine(text);
  return line.length <= SHOWN_CHARS ? line : `${line.slice(0, SHOWN_CHARS - 1)}…`;
}
