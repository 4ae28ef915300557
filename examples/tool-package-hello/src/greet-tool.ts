import { defineTool } from '@weir/core';

/** `greet { name }`: says hello. The smallest useful tool, with an example the conformance kit runs. */
export function greetTool(greeting: string) {
  return defineTool({
    name: 'greet',
    description: 'Greets a person by name. Use it when the user asks you to say hello to someone.',
    tier: 'read-only',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, description: 'Who to greet.' } },
      required: ['name'],
      additionalProperties: false,
    },
    examples: [{ arguments: { name: 'Ada' } }, { arguments: { name: '' }, expect: { ok: false, code: 'INVALID_ARGUMENTS' } }],
    execute: ({ name }) => `${greeting}, ${name}!`,
  });
}
