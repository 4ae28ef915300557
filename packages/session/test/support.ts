import { vi } from 'vitest';
import { createHarness, definePlugin, defineTool, type Harness, type HarnessOptions, type PluginContext, type ToolDefinition } from '@weir/core';

/** A read-only tool `echo { text }` whose body is a spy, so tests can tell whether it ran. */
export function echoTool(overrides: Partial<ToolDefinition> = {}) {
  const body = vi.fn(async (args: { text: string }) => args.text);
  const tool = defineTool({
    name: 'echo',
    description: 'Returns the text it is given.',
    tier: 'read-only',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', description: 'What to return.' } },
      required: ['text'],
      additionalProperties: false,
    },
    execute: body,
    ...overrides,
  } as ToolDefinition);
  return { tool, body };
}

/** A harness with these tools and, optionally, one plugin whose setup is `setup`. */
export async function harnessWith(tools: ToolDefinition[], setup?: (ctx: PluginContext) => void | Promise<void>, options?: HarnessOptions): Promise<Harness> {
  const harness = createHarness(options);
  for (const tool of tools) harness.tools.register(tool);
  if (setup) await harness.use(definePlugin({ name: 'test-plugin', setup }));
  return harness;
}
