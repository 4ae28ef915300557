import { createHarness, definePlugin, defineTool, type Harness, type LanguageModel, type ToolExecution } from '@weir/core';

/** The arguments the marker model calls `write_marker` with. */
export const MARKER_ARGS = Object.freeze({ name: 'm1' });

/** The user's text that starts a marker turn. */
export const MARKER_PROMPT = 'Write the marker.';

/** Calls write_marker once, then answers with what the tool said (an interrupted call included). */
export const markerModel: LanguageModel = {
  id: 'conformance:marker',
  complete: async (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: `Done: ${last.content}`, toolCalls: [], finishReason: 'stop' };
    return { text: '', toolCalls: [{ id: 'call_1', name: 'write_marker', arguments: { ...MARKER_ARGS } }], finishReason: 'tool_calls' };
  },
};

/**
 * A harness with one write tool, `write_marker`, whose every call needs approval, and no approver:
 * nobody in this process can answer. `effect` is the body's side effect (not idempotent: each run
 * counts), given the arguments and the call's execution (its `callKey`).
 */
export async function markerHarness(effect: (args: Record<string, unknown>, exec: ToolExecution) => void | Promise<void>): Promise<Harness> {
  const harness = createHarness();
  harness.tools.register(
    defineTool({
      name: 'write_marker',
      description: 'Writes a marker (not idempotent: each run counts).',
      tier: 'write',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      execute: async (args, exec) => {
        await effect(args, exec);
        return `wrote ${String(args.name)}`;
      },
    }),
  );
  await harness.use(definePlugin({ name: 'ask-every-call', setup: (ctx) => void ctx.guards.add(() => ({ decision: 'ask', reason: 'a write' })) }));
  return harness;
}
