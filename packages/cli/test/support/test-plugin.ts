// A plugin package written into a sandbox's node_modules, as `npm install` would leave it: plain
// JavaScript of two files (the entry imports ./greeting.mjs), so a test can change either file on
// disk and see whether /reload runs the new code. It needs no import of its own: a plugin is an
// object with a name and a setup, and a tool a plain definition.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TEST_PLUGIN = 'weir-plugin-test';

/** Writes (or rewrites) the package, its `greet` tool answering `<greeting> (<version>)`. */
export function writeTestPlugin(workspace: string, greeting: string, version = 'v1'): string {
  const dir = join(workspace, 'node_modules', TEST_PLUGIN);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: TEST_PLUGIN, version: '1.0.0', type: 'module', exports: './index.mjs' }));
  writeFileSync(join(dir, 'greeting.mjs'), `export const GREETING = ${JSON.stringify(greeting)};\n`);
  writeFileSync(
    join(dir, 'index.mjs'),
    `import { GREETING } from './greeting.mjs';
const VERSION = ${JSON.stringify(version)};
export default function testPlugin(options = {}) {
  return {
    name: 'test-plugin',
    setup(ctx) {
      ctx.tools.register({
        name: 'greet',
        description: 'Greets.',
        tier: 'read-only',
        parameters: { type: 'object', properties: {} },
        execute: () => GREETING + ' (' + VERSION + ')',
      });
      ctx.tools.register({
        name: 'slow_tool',
        description: 'Works for a long time, reporting progress, until cancelled.',
        tier: 'read-only',
        timeoutMs: 60000,
        parameters: { type: 'object', properties: {} },
        execute: (_args, exec) => new Promise((resolve, reject) => {
          let step = 0;
          const timer = setInterval(() => exec.progress({ message: 'step ' + (++step), progress: step, total: 1000 }), 200);
          const done = setTimeout(() => { clearInterval(timer); resolve('finished'); }, options.slowMs ?? 30000);
          exec.signal.addEventListener('abort', () => { clearInterval(timer); clearTimeout(done); reject(exec.signal.reason); }, { once: true });
        }),
      });
    },
  };
}
`,
  );
  return dir;
}

/** Writes the workspace's weir.config.json loading the test plugin. */
export function writeTestConfig(workspace: string, extra: Record<string, unknown> = {}): string {
  const file = join(workspace, 'weir.config.json');
  writeFileSync(file, JSON.stringify({ plugins: [TEST_PLUGIN], ...extra }, null, 2));
  return file;
}
