// A small JavaScript app, as a user writes it after `npm install` of the packed tarballs: a harness,
// the file tools, an agent on the mock model, and a tool package loaded by name. It throws (and so
// exits non-zero) on anything unexpected.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createHarness, loadPlugins } from '@weir/core';
import { createMockModel } from '@weir/llm-mock';
import { fsTools } from '@weir/tools-fs';

const root = await mkdtemp(join(tmpdir(), 'weir-packed-js-'));
try {
  await writeFile(join(root, 'notes.txt'), 'Buy milk.\n');
  const harness = createHarness();
  await harness.use(fsTools({ root }));
  // The tool package is found by its name, from this app's node_modules.
  const unload = await loadPlugins(['weir-tool-hello'], harness);
  assert.deepEqual(harness.plugins().includes('hello'), true);

  const greeting = await harness.executeToolCall({ id: 'g1', name: 'greet', arguments: { name: 'Ada' } });
  assert.equal(greeting.ok, true);
  assert.equal(greeting.content, 'Hello, Ada!');

  const agent = createAgent({ model: createMockModel(), harness, system: 'You can read files.' });
  const { text, stopReason } = await agent.turn('read file notes.txt');
  assert.equal(stopReason, 'stop');
  assert.match(text, /Buy milk/);

  const outside = await harness.executeToolCall({ id: 'r1', name: 'read_file', arguments: { path: '../x' } });
  assert.equal(outside.ok, false);

  await unload();
  await harness.close();
  console.log(`packed js app: ok (node ${process.version})`);
} finally {
  await rm(root, { recursive: true, force: true });
}
