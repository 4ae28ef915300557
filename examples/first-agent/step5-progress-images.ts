/**
 * Step 5: a tool that takes a while says what it is doing, and the model sees an image. A slow tool of
 * our own, `index_workspace`, reports each file it indexes with `exec.progress`; the agent's
 * `tool-progress` events print them as `[progress:index_workspace] 2/4 notes.txt` while it runs.
 * Then `read_file` (from @weir/tools-fs) reads `logo.png`: it knows an image by its bytes and returns it
 * as an image part, which the model receives beside the text (the mock says what it saw).
 * Run: `tsx --conditions=@weir/source examples/first-agent/step5-progress-images.ts [--workspace <folder>] [lines...]`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAgent, createHarness, defineTool, type AgentEvent } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { chooseModel } from './cli/choose-model.js';
import { runProgram } from './cli/run-program.js';
import { workspaceFlags } from './cli/workspace-flags.js';
import { runLines } from './cli/run-lines.js';

const USAGE = 'step5-progress-images.ts [--workspace <folder>] [--debug] [--] [lines...]';
const DEFAULT_LINES = ['run tool index_workspace', 'read file logo.png'];
/** How long indexing one file pretends to take: long enough to see the lines come one by one. */
const PER_FILE_MS = 250;

/** Counts the words of every file in the workspace, slowly, reporting each file as it goes. */
function indexWorkspace(root: string) {
  return defineTool({
    name: 'index_workspace',
    description: 'Counts the words of every text file in the workspace. Takes a while: it reports each file it indexes.',
    tier: 'read-only',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    // A report at least every 5 s, or the call is given up; never more than 60 s in all.
    idleTimeoutMs: 5_000,
    timeoutMs: 60_000,
    async execute(_args, exec) {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
        .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
        .sort();
      let words = 0;
      for (const [index, file] of files.entries()) {
        await sleep(PER_FILE_MS, undefined, { signal: exec.signal });
        const bytes = await readFile(join(root, file));
        words += countWords(bytes);
        exec.progress({ message: file, progress: index + 1, total: files.length });
      }
      return `Indexed ${files.length} files: ${words} words.`;
    },
  });
}

/** The words of UTF-8 text; bytes that are not UTF-8 (an image) have none. */
function countWords(bytes: Uint8Array): number {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).split(/\s+/).filter(Boolean).length;
  } catch {
    return 0;
  }
}

await runProgram(async () => {
  const flags = workspaceFlags(USAGE, DEFAULT_LINES);
  if (flags === undefined) return;
  const { lines, root } = flags;
  const { model, description, progress } = await chooseModel();
  console.error(`[model] ${description}`);

  const harness = createHarness();
  try {
    await harness.use(fsTools({ root }));
    harness.tools.register(indexWorkspace(root));
    const agent = createAgent({
      model,
      harness,
      system: 'You can read files of a small workspace and index it with your tools. Answer in the language of the user.',
      maxSteps: 8,
    });
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());

    // Progress reports arrive while the tool runs (a burst is thinned to one every 100 ms).
    const printProgress = (event: AgentEvent) => {
      if (event.type !== 'tool-progress') return;
      const { message, progress: done, total } = event.update;
      const count = done === undefined ? '' : total === undefined ? `${done} ` : `${done}/${total} `;
      console.log(`[progress:${event.toolName}] ${count}${message ?? ''}`.trimEnd());
    };
    if ((await runLines(agent, lines, { signal: stop.signal, progress, onEvent: printProgress })) === 'aborted') process.exitCode = 130;
  } finally {
    await harness.close();
  }
});
