import { definePlugin, type Plugin } from '@weir/core';
import { greetTool } from './greet-tool.js';

export interface HelloOptions {
  /** The word to greet with. Default "Hello". */
  readonly greeting?: string;
}

/**
 * The package's default export: a plugin factory. A harness loads it by name with
 * `loadPlugins(['weir-tool-hello'], harness)` or `harness.use(await importPlugin('weir-tool-hello'))`.
 */
export default function helloTools(options: HelloOptions = {}): Plugin {
  return definePlugin({
    name: 'hello',
    setup(ctx) {
      ctx.tools.register(greetTool(options.greeting ?? 'Hello'));
    },
  });
}

export { greetTool };
