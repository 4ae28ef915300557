import { defineTool, ToolCallError, type ToolDefinition, type ToolExecution, type ToolFiles, type ToolTier } from '@weir/core';
import { fromAiSdkSchema } from './from-ai-sdk-schema.js';
import { toWeirContent } from './to-weir-content.js';

/** An AI SDK tool, as far as weir reads it (AI SDK 5, 6 and 7, `tool()` or `dynamicTool()`). */
// Loose on purpose: each major types these fields its own way (generics, a context type, a
// description that may be a function in AI SDK 7), and a tool of any of them must be accepted.
export interface AiSdkToolLike {
  readonly description?: string | ((options: any) => string);
  readonly title?: string;
  readonly inputSchema?: unknown;
  readonly execute?: (...args: any[]) => unknown;
  readonly toModelOutput?: (options: any) => unknown;
}

export interface WeirToolOptions {
  /** The weir tool name (`^[a-zA-Z0-9_-]{1,64}$`); an AI SDK tool is named by its key in a `ToolSet`. */
  readonly name: string;
  /** Default `'dangerous'`, weir's default for a tool that does not say what it does. */
  readonly tier?: ToolTier;
  readonly files?: ToolFiles;
  readonly timeoutMs?: number;
}

/**
 * An AI SDK tool as a weir tool definition: its input schema becomes `parameters` (weir validates;
 * a `jsonSchema(..., { validate })` validator runs after), its `execute` the body, called with the
 * weir call id as `toolCallId` and the call's signal as `abortSignal`. A streaming `execute`
 * (an async iterable) reports each preliminary output as progress and resolves to the last. With
 * `toModelOutput`, the weir value is what the model reads (its output as weir content); without,
 * the output itself, rendered as weir renders any value. Throws a one-line `TypeError` for a tool
 * weir cannot run (no `execute`: a provider-executed tool; a schema without JSON Schema).
 */
export function weirTool(tool: AiSdkToolLike, options: WeirToolOptions): ToolDefinition {
  const name = options?.name;
  const owner = `weirTool(${JSON.stringify(name)})`;
  if (typeof tool !== 'object' || tool === null) throw new TypeError(`${owner}: expected an AI SDK tool object, got ${tool === null ? 'null' : typeof tool}.`);
  if (typeof tool.execute !== 'function') {
    throw new TypeError(`${owner}: the tool has no execute function (a provider-executed or client-side tool), so weir cannot run it.`);
  }
  const { parameters, validate } = fromAiSdkSchema(tool.inputSchema, owner);
  const run = tool.execute;
  const toModel = tool.toModelOutput;
  const description = typeof tool.description === 'function' ? tool.description({ context: undefined }) : (tool.description ?? tool.title ?? '');

  const execute = async (args: Record<string, unknown>, exec: ToolExecution): Promise<unknown> => {
    let input: unknown = args;
    if (validate !== undefined) {
      const checked = await validate(args);
      if (!checked.success) throw new ToolCallError('INVALID_ARGUMENTS', `${name}: ${checked.error.message}`);
      input = checked.value;
    }
    const sdkOptions = { toolCallId: exec.callId, messages: [], abortSignal: exec.signal, context: undefined, experimental_context: undefined };
    const output = await lastOutput(run(input, sdkOptions), exec);
    if (toModel === undefined) return output;
    return toWeirContent(await toModel({ toolCallId: exec.callId, input, output }), name);
  };

  return defineTool({
    name,
    description,
    parameters,
    execute,
    ...(options.tier !== undefined ? { tier: options.tier } : {}),
    ...(options.files !== undefined ? { files: options.files } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    // A toModelOutput's content is already what the model reads: parts stay parts.
    ...(toModel !== undefined ? { output: { render: (value: unknown) => value as string } } : {}),
  } as ToolDefinition);
}

/** The value of a plain or awaited result; for an async iterable (AI SDK preliminary results), the last one, each earlier one a progress report. */
async function lastOutput(result: unknown, exec: ToolExecution): Promise<unknown> {
  if (typeof (result as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] !== 'function') return result;
  let last: unknown;
  let seen = 0;
  for await (const value of result as AsyncIterable<unknown>) {
    if (seen > 0) exec.progress({ message: 'preliminary result', progress: seen });
    last = value;
    seen += 1;
  }
  return last;
}
