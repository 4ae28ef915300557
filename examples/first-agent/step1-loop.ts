/**
 * Step 1: the loop that thinks. No tools: each line is a turn, and the model's answer streams in
 * as it is written. Run: `tsx --conditions=@weir/source examples/first-agent/step1-loop.ts [lines...]`.
 */
import { createAgent, createHarness } from '@weir/core';
import { chooseModel } from './choose-model.js';

const DEFAULT_LINES = ['Hello! Who are you?', '你好，今天天气怎么样？', 'read file notes.txt'];
const lines = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_LINES;

const harness = createHarness();
const agent = createAgent({ model: await chooseModel(), harness, system: 'You are a helpful assistant. Answer in the language of the user.' });

for (const line of lines) {
  console.log(`[user] ${line}`);
  let open = false;
  const result = await agent.turn(line, {
    onEvent(event) {
      if (event.type === 'text-delta') {
        process.stdout.write(open ? event.text.replace(/\n/g, ' ⏎ ') : `[assistant] ${event.text.replace(/\n/g, ' ⏎ ')}`);
        open = true;
      } else if (event.type === 'model-call-end' && open) {
        process.stdout.write('\n');
        open = false;
      }
    },
  });
  if (result.stopReason !== 'stop') console.log(`[stopped: ${result.stopReason}]`);
}
await harness.close();
