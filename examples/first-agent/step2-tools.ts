/**
 * Step 2: the loop with hands and eyes. The model calls `read_file` and `list_dir` (from
 * @weir/tools-fs); every result, an error too, goes back to the model, which reads it and answers.
 * The tools are confined to ./workspace (or `--workspace <folder>`). Run: `pnpm demo`, or
 * `tsx --conditions=@weir/source examples/first-agent/step2-tools.ts [--workspace <folder>] [lines...]`.
 */
import { createAgent, createHarness } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { chooseModel } from './cli/choose-model.js';
import { runProgram } from './cli/run-program.js';
import { workspaceFlags } from './cli/workspace-flags.js';
import { runLines } from './cli/run-lines.js';

const USAGE = 'step2-tools.ts [--workspace <folder>] [--debug] [--] [lines...]';
const DEFAULT_LINES = [
  'list dir .',
  'read file notes.txt',
  'read file missing.txt',
  'read file ../package.json',
  '读文件 todo.md',
  '谢谢！',
];

await runProgram(async () => {
  const flags = workspaceFlags(USAGE, DEFAULT_LINES);
  if (flags === undefined) return;
  const { lines, root } = flags;
  const { model, description, progress } = await chooseModel();
  console.error(`[model] ${description}`);

  const harness = createHarness();
  try {
    // Read-only file tools (read_file, list_dir, find_files, search_files), confined to the workspace.
    await harness.use(fsTools({ root }));
    const agent = createAgent({
      model,
      harness,
      system: 'You can read files and list folders of a small workspace with your tools. Answer in the language of the user.',
      maxSteps: 8,
    });

    // Ctrl-C stops the running turn: its model call and its tools are cancelled, and the program ends.
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());

    if ((await runLines(agent, lines, { signal: stop.signal, progress })) === 'aborted') process.exitCode = 130;
  } finally {
    await harness.close();
  }
});
