/**
 * Step 3: a loop you can trust with a write tool. The model asks to write files; @weir/safety
 * decides: in mode "ask" every write needs your approval, so a prompt appears in the terminal
 * (allow once, allow for this session, deny, or deny with a message the model reads), and a rule
 * denies writing `.env` without asking. Without a terminal (CI, a pipe) nothing is prompted and
 * every write that needs approval is denied. The model reads every denial and the loop goes on.
 * Ctrl-C, at the prompt or while the model thinks, denies, stops the turn and ends the program
 * with status 130.
 *
 * The files are written into a temporary copy of ./workspace, removed at the end.
 * Run: `tsx --conditions=@weir/source examples/first-agent/step3-safety.ts [lines...]`.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgent, createHarness, type LanguageModel } from '@weir/core';
import { createScriptedModel, type ScriptedStep } from '@weir/llm-mock';
import { safety, terminalApprover } from '@weir/safety';
import { fsTools } from '@weir/tools-fs';
import { chooseModel } from './cli/choose-model.js';
import { parseFlags } from './cli/parse-flags.js';
import { runProgram } from './cli/run-program.js';
import { oneLine, runLines } from './cli/run-lines.js';

const USAGE = 'step3-safety.ts [--debug] [--] [lines...]';
const DEFAULT_LINES = ['write hello.txt: Hello from weir!', 'write plan.md: - ship step 3', 'write .env: TOKEN=hunter2'];
const WRITE = /^\s*write\s+(\S+?)\s*:\s*(.*)$/s;

await runProgram(async () => {
  const { values, positionals } = parseFlags(USAGE, {});
  if (values.help) return console.log(`Usage: ${USAGE}`);
  const lines = positionals.length > 0 ? positionals : DEFAULT_LINES;
  const { model, description, progress } = await chooseModel(() => scriptedWriter(lines.length));
  console.error(`[model] ${description}`);

  // Ctrl-C, at the approval prompt or while the model thinks, stops the running turn (its model call
  // and its tools are cancelled) and ends the program with status 130, as terminal programs do.
  const stop = new AbortController();
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    stop.abort();
  };
  process.once('SIGINT', interrupt);

  // A copy of the workspace, so trying the example never changes the repository.
  const root = await mkdtemp(join(tmpdir(), 'weir-step3-'));
  const harness = createHarness();
  try {
    await cp(fileURLToPath(new URL('./workspace/', import.meta.url)), root, { recursive: true });
    await harness.use(fsTools({ root, write: true }));
    await harness.use(
      safety({
        mode: 'ask',
        rules: [{ deny: 'write_file', path: '.env' }],
        // The prompt denies on Ctrl-C and tells us; what follows is this program's choice.
        approver: terminalApprover({ onInterrupt: interrupt }),
      }),
    );
    const agent = createAgent({
      model,
      harness,
      system: 'You can write files of a small workspace with write_file. When a call is denied, say so and do not retry it.',
      maxSteps: 4,
    });

    await runLines(agent, lines, { signal: stop.signal, progress });
    for (const line of interrupted ? [] : lines) {
      const path = WRITE.exec(line)?.[1];
      if (path === undefined) continue;
      const content = await readFile(join(root, path), 'utf8').catch(() => undefined);
      console.log(`[workspace] ${path}: ${content === undefined ? '(not written)' : oneLine(content.trimEnd())}`);
    }
  } finally {
    await harness.close();
    await rm(root, { recursive: true, force: true });
  }
  if (interrupted) {
    console.log('[interrupted]');
    process.exitCode = 130;
  }
});

/** The mock of this step: a scripted model that turns "write <path>: <text>" into a write_file call. */
function scriptedWriter(lineCount: number): LanguageModel {
  const step: ScriptedStep = (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: last.isError ? `I could not write that file. ${last.content}` : `Done. ${last.content}` };
    const command = last?.role === 'user' ? WRITE.exec(last.content) : null;
    if (!command) return { text: 'Say "write <path>: <text>" and I will ask to write it.' };
    return { toolCalls: [{ name: 'write_file', arguments: { path: command[1], content: `${command[2]}\n` } }] };
  };
  // Two model calls per line at most: the write, then the answer to its result.
  return createScriptedModel(Array.from({ length: lineCount * 2 }, () => step));
}
