import { definePlugin, defineTool } from '@weir/core';

/** The benches' `echo { text }`: a read-only tool that returns its text. A fresh definition per call. */
export function echoTool() {
  return defineTool({
    name: 'echo',
    description: 'Returns its text.',
    tier: 'read-only',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: ({ text }) => text,
  });
}

/** A plugin that registers `echoTool()`. */
export function echoPlugin() {
  return definePlugin({ name: 'echo', setup: (ctx) => void ctx.tools.register(echoTool()) });
}
