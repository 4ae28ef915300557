// Recipe: a permission gate. A guard allows only listed commands; a prepareExecution tap blocks
// forced operations outright. Guards are monotonic: no later plugin can relax this deny.
import { createHarness, definePlugin, defineTool } from '@weir/core';
import { describeResult, runIfMain } from './run-if-main.js';

export function permissionGate(allowedCommands: readonly string[]) {
  return definePlugin({
    name: 'permission-gate',
    setup(ctx) {
      ctx.guards.add((call) => {
        if (call.toolName !== 'run') return undefined;
        const program = String(call.arguments.command).trim().split(/\s+/)[0] ?? '';
        return allowedCommands.includes(program)
          ? { decision: 'allow' }
          : { decision: 'deny', reason: `only ${allowedCommands.join(', ')} may run, not ${program}` };
      });
      ctx.hooks.prepareExecution.tap((preparation) => {
        if (preparation.status === 'ready' && String(preparation.arguments.command).includes('--force')) {
          return { action: 'block', reason: 'forced operations need a person at the keyboard' };
        }
        return undefined;
      });
    },
  });
}

// A stand-in for a shell tool: it reports what it would run.
const run = defineTool({
  name: 'run',
  description: 'Runs a shell command in the project.',
  tier: 'dangerous',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  execute: ({ command }) => `would run "${command}"`,
});

export async function main(): Promise<string[]> {
  const harness = createHarness();
  harness.tools.register(run);
  await harness.use(permissionGate(['ls', 'git']));
  const lines: string[] = [];
  for (const command of ['ls -la', 'rm -rf build', 'git push --force']) {
    lines.push(describeResult(command, await harness.executeToolCall({ id: command, name: 'run', arguments: { command } })));
  }
  return lines;
}

await runIfMain(import.meta.url, main);
