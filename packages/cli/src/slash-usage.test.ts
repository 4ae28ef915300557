// `/usage` counts the tokens of this run's turns and of its `/compact` summary calls, which no
// turn's usage includes.
import { createAgent, createHarness, type TurnResult, type Usage } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { expect, it } from 'vitest';
import type { ChosenModel } from './choose-model.js';
import { runSlashCommand, type SlashContext } from './slash-commands.js';
import type { StartedWeir } from './start-weir.js';

it('/usage adds the /compact summary calls to the turns; without usage from the model it says so', async () => {
  const used = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens });
  const model = createScriptedModel([
    { text: 'one', usage: used(10, 2) },
    { text: 'two', usage: used(20, 3) },
    { text: 'three', usage: used(30, 4) },
    { text: 'they counted', usage: used(50, 7) },
  ]);
  const harness = createHarness();
  const agent = createAgent({ model, harness });
  const turns: TurnResult[] = [];
  for (const prompt of ['a', 'b', 'c']) turns.push(await agent.turn(prompt));
  const lines: string[] = [];
  const compactions: Usage[] = [];
  // The two commands read only the agent and the harness of the session.
  const weir = { agent, composed: { harness } } as unknown as StartedWeir;
  const context: SlashContext = { weir, model: {} as ChosenModel, turns, compactions, say: (line) => void lines.push(line) };

  await runSlashCommand('/usage', context);
  await runSlashCommand('/compact', context);
  await runSlashCommand('/usage', context);

  expect(lines[0]).toBe('[usage] 3 turns: 60 input tokens, 9 output tokens');
  expect(lines[1]).toMatch(/^\[compact\] \d+ earlier messages became a summary/);
  expect(lines[2]).toBe('[usage] 3 turns and 1 /compact summary: 110 input tokens, 16 output tokens');
  model.assertAllUsed();

  const quiet: string[] = [];
  await runSlashCommand('/usage', { ...context, turns: [{ ...turns[0]!, usage: undefined }], compactions: [], say: (line) => void quiet.push(line) });
  expect(quiet).toEqual(['[usage] 1 turn; the model reported no token usage']);
});
