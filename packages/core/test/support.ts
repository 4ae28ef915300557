import { vi } from 'vitest';
import { createHarness, definePlugin, defineTool, type Harness, type HarnessOptions, type Logger, type PluginContext, type ToolDefinition } from '@weir/core';

/** A promise with its resolve and reject exposed. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

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

/** A harness with `tools` registered and, optionally, a plugin set up by `setup`. */
export async function harnessWith(tools: ToolDefinition[], setup?: (ctx: PluginContext) => void | Promise<void>, options?: HarnessOptions): Promise<Harness> {
  const harness = createHarness(options);
  for (const tool of tools) harness.tools.register(tool);
  if (setup) await harness.use(definePlugin({ name: 'test-plugin', setup }));
  return harness;
}

/** A logger that records what it is given, for asserting on logged errors. */
export function recordingLogger() {
  const records: { level: string; args: unknown[] }[] = [];
  const make = (): Logger => ({
    debug: (...args) => void records.push({ level: 'debug', args }),
    info: (...args) => void records.push({ level: 'info', args }),
    warn: (...args) => void records.push({ level: 'warn', args }),
    error: (...args) => void records.push({ level: 'error', args }),
    child: () => make(),
  });
  return { logger: make(), records };
}

/** A strict model for core's own tests: answers with `steps` in order and fails on a call beyond them. */
export function scriptedModel(steps: readonly Partial<import('@weir/core').ModelResponse>[]): import('@weir/core').LanguageModel {
  let next = 0;
  return {
    id: 'test:scripted',
    complete: async (request) => {
      if (request.signal?.aborted) throw request.signal.reason ?? new Error('aborted');
      const step = steps[next++];
      if (step === undefined) throw new Error(`scriptedModel: no step ${next} (the script has ${steps.length})`);
      const toolCalls = step.toolCalls ?? [];
      return { text: step.text ?? '', toolCalls, finishReason: step.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'), usage: step.usage };
    },
  } as import('@weir/core').LanguageModel;
}
