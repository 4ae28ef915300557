// A small TypeScript app against the packed tarballs, type-checked with `nodenext` resolution and
// strict options, then run. It throws (and so exits non-zero) on anything unexpected.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createHarness, defineTool, importPlugin, type AgentEvent, type ToolResult } from '@weir/core';
import { createMockModel } from '@weir/llm-mock';
import { fsTools } from '@weir/tools-fs';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  tier: 'read-only',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  // a and b are inferred as numbers from the schema: this line fails the type check otherwise.
  execute: ({ a, b }) => a + b,
});

const root = await mkdtemp(join(tmpdir(), 'weir-packed-ts-'));
try {
  await writeFile(join(root, 'todo.md'), '# todo\n- ship\n');
  const harness = createHarness();
  harness.tools.register(add);
  await harness.use(fsTools({ root }));
  await harness.use(await importPlugin('weir-tool-hello', { options: { greeting: 'Hej' } }));

  const sum: ToolResult = await harness.executeToolCall({ id: 'a1', name: 'add', arguments: '{"a": 1, "b": 2}' });
  assert.equal(sum.ok && sum.value, 3);
  const greeting = await harness.executeToolCall({ id: 'g1', name: 'greet', arguments: { name: 'Ada' } });
  assert.equal(greeting.content, 'Hej, Ada!');

  const seen: string[] = [];
  const agent = createAgent({ model: createMockModel(), harness, system: 'You can read files.' });
  const result = await agent.turn('read file todo.md', {
    onEvent: (event: AgentEvent) => {
      if (event.type === 'tool-result') seen.push(`${event.call.name}:${event.result.ok ? 'ok' : 'error'}`);
    },
  });
  assert.equal(result.stopReason, 'stop');
  assert.deepEqual(seen, ['read_file:ok']);
  await harness.close();
  console.log(`packed ts app: ok (node ${process.version})`);
} finally {
  await rm(root, { recursive: true, force: true });
}
