import { createHarness, definePlugin, defineTool, type Harness, type LanguageModel, type Plugin, type ToolExecution } from '@weir/core';

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

/** What the body of `write_marker` does: given the arguments and the call's execution (its `callKey`). */
export type MarkerEffect = (args: Record<string, unknown>, exec: ToolExecution) => void | Promise<void>;

/**
 * The plugin registering `write_marker`, a `write` tool whose body runs `effect` (not idempotent:
 * each run counts). The agent's harness loads it (through `markerHarness`), and so does a tool
 * worker that runs the body for it (a BullMQ worker), so both have the one definition.
 */
export function markerTool(effect: MarkerEffect): Plugin {
  return definePlugin({
    name: 'marker-tool',
    setup(ctx) {
      ctx.tools.register(
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
    },
  });
}

/**
 * A harness with one write tool, `write_marker`, whose every call needs approval, and no approver:
 * nobody in this process can answer. `effect` is the body's side effect (not idempotent: each run
 * counts), given the arguments and the call's execution (its `callKey`).
 */
export async function markerHarness(effect: MarkerEffect): Promise<Harness> {
  const harness = createHarness();
  await harness.use(markerTool(effect));
  await harness.use(definePlugin({ name: 'ask-every-call', setup: (ctx) => void ctx.guards.add(() => ({ decision: 'ask', reason: 'a write' })) }));
  return harness;
}
