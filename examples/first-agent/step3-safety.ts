/**
 * Step 3: a loop you can trust with a write tool. The model asks to write files; @weir/safety
 * decides: in mode "ask" every write needs your approval, so a prompt appears in the terminal
 * (allow once, allow for this session, deny, or deny with a message the model reads), and a rule
 * denies writing `.env` without asking. Without a terminal (CI, a pipe) nothing is prompted and
 * every write that needs approval is denied. The model reads every denial and the loop goes on.
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
import { chooseModel } from './choose-model.js';

const DEFAULT_LINES = ['write hello.txt: Hello from weir!', 'write plan.md: - ship step 3', 'write .env: TOKEN=hunter2'];
const lines = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_LINES;
const WRITE = /^\s*write\s+(\S+?)\s*:\s*(.*)$/s;
const oneLine = (text: string) => text.replace(/\n/g, ' ⏎ ');

// A copy of the workspace, so trying the example never changes the repository.
const root = await mkdtemp(join(tmpdir(), 'weir-step3-'));
await cp(fileURLToPath(new URL('./workspace/', import.meta.url)), root, { recursive: true });

const harness = createHarness();
await harness.use(fsTools({ root, write: true }));
await harness.use(
  safety({
    mode: 'ask',
    rules: [{ deny: 'write_file', path: '.env' }],
    approver: terminalApprover(),
  }),
);
const agent = createAgent({
  model: await pickModel(),
  harness,
  system: 'You can write files of a small workspace with write_file. When a call is denied, say so and do not retry it.',
  maxSteps: 4,
});

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

try {
  for (const line of lines) {
    console.log(`[user] ${line}`);
    const result = await agent.turn(line, {
      signal: stop.signal,
      stream: false,
      onEvent(event) {
        if (event.type === 'tool-result') {
          const { result: toolResult } = event;
          console.log(`[tool:${event.call.name}] -> ${toolResult.ok ? 'ok' : `${toolResult.error.code} ${oneLine(toolResult.error.message)}`}`);
        } else if (event.type === 'model-call-end' && event.response.text !== '') {
          console.log(`[assistant] ${oneLine(event.response.text)}`);
        }
      },
    });
    if (result.stopReason !== 'stop') console.log(`[stopped: ${result.stopReason}]`);
    if (result.stopReason === 'aborted') break;
  }
  for (const line of lines) {
    const path = WRITE.exec(line)?.[1];
    if (path === undefined) continue;
    const content = await readFile(join(root, path), 'utf8').catch(() => undefined);
    console.log(`[workspace] ${path}: ${content === undefined ? '(not written)' : oneLine(content.trimEnd())}`);
  }
} finally {
  await harness.close();
  await rm(root, { recursive: true, force: true });
}

/** A real model when OPENAI_* is set; otherwise a scripted mock that turns "write <path>: <text>" into a write_file call. */
async function pickModel(): Promise<LanguageModel> {
  const { OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL } = process.env;
  if (OPENAI_BASE_URL && OPENAI_API_KEY && OPENAI_MODEL) return chooseModel();
  const step: ScriptedStep = (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: last.isError ? `I could not write that file. ${last.content}` : `Done. ${last.content}` };
    const command = last?.role === 'user' ? WRITE.exec(last.content) : null;
    if (!command) return { text: 'Say "write <path>: <text>" and I will ask to write it.' };
    return { toolCalls: [{ name: 'write_file', arguments: { path: command[1], content: `${command[2]}\n` } }] };
  };
  // Two model calls per line at most: the write, then the answer to its result.
  return createScriptedModel(Array.from({ length: lines.length * 2 }, () => step));
}
