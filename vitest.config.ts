import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import workspace packages by name and run against their sources: no build needed.
// The order matters: '@weir/core/testing' must match before '@weir/core' (and '@weir/session/testing' before '@weir/session').
const alias = [
  { find: /^@weir\/core\/testing$/, replacement: here('packages/core/src/plugins/testing/index.ts') },
  { find: /^@weir\/core$/, replacement: here('packages/core/src/index.ts') },
  { find: /^@weir\/tools-fs$/, replacement: here('packages/tools-fs/src/index.ts') },
  { find: /^@weir\/llm-openai$/, replacement: here('packages/llm-openai/src/index.ts') },
  { find: /^@weir\/llm-anthropic$/, replacement: here('packages/llm-anthropic/src/index.ts') },
  { find: /^@weir\/llm-google$/, replacement: here('packages/llm-google/src/index.ts') },
  { find: /^@weir\/llm-mock$/, replacement: here('packages/llm-mock/src/index.ts') },
  { find: /^@weir\/safety$/, replacement: here('packages/safety/src/index.ts') },
  { find: /^@weir\/tools-shell$/, replacement: here('packages/tools-shell/src/index.ts') },
  { find: /^@weir\/session\/store-kit$/, replacement: here('packages/session/src/store-kit/index.ts') },
  { find: /^@weir\/session\/testing$/, replacement: here('packages/session/src/testing/index.ts') },
  { find: /^@weir\/session$/, replacement: here('packages/session/src/index.ts') },
  { find: /^@weir\/session-postgres$/, replacement: here('packages/session-postgres/src/index.ts') },
  { find: /^@weir\/session-redis$/, replacement: here('packages/session-redis/src/index.ts') },
  { find: /^@weir\/dispatch-bullmq$/, replacement: here('packages/dispatch-bullmq/src/index.ts') },
  { find: /^@weir\/mcp$/, replacement: here('packages/mcp/src/index.ts') },
  { find: /^@weir\/cli$/, replacement: here('packages/cli/src/index.ts') },
  { find: /^@weir\/hooks$/, replacement: here('packages/hooks/src/index.ts') },
  { find: /^@weir\/extensions$/, replacement: here('packages/extensions/src/index.ts') },
  { find: /^@weir\/otel$/, replacement: here('packages/otel/src/index.ts') },
  { find: /^@weir\/acp$/, replacement: here('packages/acp/src/index.ts') },
  { find: /^@weir\/ai-sdk$/, replacement: here('packages/ai-sdk/src/index.ts') },
  { find: /^@weir\/create-plugin$/, replacement: here('packages/create-plugin/src/index.ts') },
  { find: /^weir-tool-hello$/, replacement: here('examples/tool-package-hello/src/index.ts') },
];

interface ProjectOptions {
  readonly include?: string[];
  /** Type tests (`*.test-d.ts`) run with the project's own tsconfig. */
  readonly typecheck?: boolean;
}

const project = (name: string, root: string, options: ProjectOptions = {}) => ({
  extends: true as const,
  test: {
    name,
    root: here(root),
    include: options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: {
      enabled: options.typecheck ?? true,
      include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
      tsconfig: here(`${root}/tsconfig.json`),
    },
  },
});

export default defineConfig({
  resolve: { alias },
  test: {
    // 5 s (the default) times out on this shared 2-core machine under load, and the first test of a
    // file now also pays for Ajv, which core loads on the first compiled schema (cold start).
    testTimeout: 20_000,
    // CI reads the counts from the JSON report (.ci/run prints "N passed, N failed").
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitest-results.json' }]] : ['default'],
    projects: [
      project('core', 'packages/core'),
      project('tools-fs', 'packages/tools-fs'),
      project('llm-openai', 'packages/llm-openai'),
      project('llm-anthropic', 'packages/llm-anthropic'),
      project('llm-google', 'packages/llm-google'),
      project('llm-mock', 'packages/llm-mock'),
      project('safety', 'packages/safety'),
      project('tools-shell', 'packages/tools-shell'),
      project('session', 'packages/session'),
      project('session-postgres', 'packages/session-postgres'),
      project('session-redis', 'packages/session-redis'),
      project('dispatch-bullmq', 'packages/dispatch-bullmq'),
      project('mcp', 'packages/mcp'),
      project('cli', 'packages/cli'),
      project('otel', 'packages/otel'),
      project('ai-sdk', 'packages/ai-sdk'),
      project('hooks', 'packages/hooks'),
      project('acp', 'packages/acp'),
      project('extensions', 'packages/extensions'),
      project('create-plugin', 'packages/create-plugin'),
      // The cold-import rule (docs/design.md), checked in child processes.
      project('bench', 'bench', { include: ['test/**/*.test.ts'], typecheck: false }),
      // Each example is a package of its own; their tests sit in <example>/test/.
      project('examples', 'examples', { include: ['*/test/**/*.test.ts'], typecheck: false }),
      // The repository as a new user meets it: licenses, READMEs, Node versions, docs that run.
      project('repo', '.', { include: ['test/**/*.test.ts'], typecheck: false }),
    ],
  },
});
