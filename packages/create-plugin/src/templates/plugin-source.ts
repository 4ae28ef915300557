import type { PluginNames } from '../plugin-names.js';

/** The scaffolded tool, `src/count-words-tool.ts`: small, with a tier, described parameters and examples the conformance kit runs. */
export function toolSource(): string {
  return `import { defineTool } from '@weir/core';

/** \`count_words { text }\`: counts the words in a text. Replace it with your own tool. */
export const countWordsTool = defineTool({
  name: 'count_words',
  description: 'Counts the words in a text. Use it when the user asks how long a text is in words.',
  tier: 'read-only',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text whose words to count.' } },
    required: ['text'],
    additionalProperties: false,
  },
  // The conformance kit runs these: one call that works, one the schema refuses.
  examples: [{ arguments: { text: 'one two three' } }, { arguments: {}, expect: { ok: false, code: 'INVALID_ARGUMENTS' } }],
  execute: ({ text }) => text.split(/\\s+/).filter((word) => word !== '').length,
});
`;
}

/** The scaffolded entry point, \`src/index.ts\`: the plugin factory as the default export. */
export function pluginSource(names: PluginNames): string {
  return `import { definePlugin, type Plugin } from '@weir/core';
import { countWordsTool } from './count-words-tool.js';

/**
 * The package's default export: a plugin factory. A harness loads it by name with
 * \`loadPlugins(['${names.packageName}'], harness)\`, the weir CLI with \`weir plugin add ${names.packageName}\`.
 */
export default function ${camel(names.pluginName)}Plugin(): Plugin {
  return definePlugin({
    name: '${names.pluginName}',
    setup(ctx) {
      ctx.tools.register(countWordsTool);
    },
  });
}

export { countWordsTool };
`;
}

/** The scaffolded test, \`src/index.test.ts\`: the conformance kit, the tool's answer, the skill's front matter. */
export function pluginTest(names: PluginNames): string {
  return `import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { createHarness } from '@weir/core';
import { assertPluginConformance } from '@weir/core/testing';
import plugin from './index.js';

test('the plugin passes the weir conformance kit', async () => {
  // Loads and unloads the plugin twice, checks what the model sees and runs the tool's examples.
  const report = await assertPluginConformance(plugin());
  assert.deepEqual(report.tools, ['count_words']);
  assert.equal(report.examplesRun, 2);
});

test('count_words counts the words of a text', async () => {
  const harness = createHarness();
  await harness.use(plugin());
  const result = await harness.executeToolCall({ id: 'c1', name: 'count_words', arguments: { text: ' to be  or not ' } });
  assert.equal(result.ok && result.value, 4);
  await harness.close();
});

test('the skill is named after its folder and says when to use it', async () => {
  const text = await readFile(new URL('../skills/${names.pluginName}/SKILL.md', import.meta.url), 'utf8');
  const front = /^---\\n([\\s\\S]*?)\\n---\\n/.exec(text)?.[1] ?? '';
  assert.match(front, /^name: ${names.pluginName}$/m);
  assert.match(front, /^description: .{20,1024}$/m);
});
`;
}

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}
