import { defineTool, definePlugin, type Plugin, type ToolTier } from '@weir/core';

/** The calls that reached a tool body, by tool name. */
export type BodyLog = string[];

function pathTool(name: string, tier: ToolTier, ran: BodyLog) {
  return defineTool({
    name,
    description: `Test tool ${name} (${tier}); records that its body ran.`,
    tier,
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'a path' }, content: { type: 'string', description: 'text' } },
      required: ['path'],
      additionalProperties: false,
    },
    execute: ({ path }) => {
      ran.push(`${name} ${path}`);
      return `${name} did ${path}`;
    },
  });
}

/** read_file (read-only), write_file and edit_file (write), and run_command (dangerous), bodies logged in `ran`. */
export function testTools(ran: BodyLog): Plugin {
  const runCommand = defineTool({
    name: 'run_command',
    description: 'Test tool run_command (dangerous); records that its body ran.',
    tier: 'dangerous',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'a command' },
        path: { type: 'string', description: 'working directory' },
        network: { type: 'array', items: { type: 'string' }, description: 'hosts the command asks to reach, as tools-shell takes them with perCallHosts' },
      },
      required: ['command'],
      additionalProperties: false,
    },
    execute: ({ command }) => {
      ran.push(`run_command ${command}`);
      return `ran ${command}`;
    },
  });
  return definePlugin({
    name: 'test-tools',
    setup(ctx) {
      ctx.tools.register(pathTool('read_file', 'read-only', ran));
      ctx.tools.register(pathTool('write_file', 'write', ran));
      ctx.tools.register(pathTool('edit_file', 'write', ran));
      ctx.tools.register(runCommand);
    },
  });
}
