/**
 * Step 1: the loop that thinks. No tools: each line is a turn, and the model's answer streams in
 * as it is written. Run: `tsx --conditions=@weir/source examples/first-agent/step1-loop.ts [lines...]`.
 */
import { createAgent, createHarness } from '@weir/core';
import { chooseModel } from './cli/choose-model.js';
import { parseFlags } from './cli/parse-flags.js';
import { runProgram } from './cli/run-program.js';

const USAGE = 'step1-loop.ts [--debug] [--] [lines...]';
const DEFAULT_LINES = ['Hello! Who are you?', '你好，今天天气怎么样？', 'read file notes.txt'];

await runProgram(async () => {
  const { values, positionals } = parseFlags(USAGE, {});
  if (values.help) return console.log(`Usage: ${USAGE}`);
  const lines = positionals.length > 0 ? positionals : DEFAULT_LINES;
  const { model, description, progress } = await chooseModel();
  console.error(`[model] ${description}`);

  const harness = createHarness();
  const agent = createAgent({ model, harness, system: 'You are a helpful assistant. Answer in the language of the user.' });
  try {
    for (const line of lines) {
      console.log(`[user] ${line}`);
      let open = false;
      const result = await agent.turn(line, {
        onEvent: (event) => {
          progress.onEvent(event);
          if (event.type === 'text-delta') {
            process.stdout.write(open ? event.text.replace(/\n/g, ' ⏎ ') : `[assistant] ${event.text.replace(/\n/g, ' ⏎ ')}`);
            open = true;
          } else if (event.type === 'model-call-end' && open) {
            process.stdout.write('\n');
            open = false;
          }
        },
      }).finally(() => {
        progress.stop();
        // A failed stream leaves its line open: end it before the error line.
        if (open) process.stdout.write('\n');
      });
      if (result.stopReason !== 'stop') console.log(`[stopped: ${result.stopReason}]`);
    }
  } finally {
    await harness.close();
  }
});
