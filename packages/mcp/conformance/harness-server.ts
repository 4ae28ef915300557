// serveHarness over Streamable HTTP with the tools the conformance suite's server scenarios call,
// each an ordinary weir tool. Prints the URL on stdout and serves until stdin closes.
// Run: tsx --conditions=@weir/source conformance/harness-server.ts
import { createHarness, definePlugin, defineTool, ToolCallError, type ToolDefinition } from '@weir/core';
import { serveHarness } from '../src/index.js';

// A 1x1 PNG and a tiny WAV header: what the image and audio scenarios need to see.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const none = { type: 'object', properties: {} } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tools: ToolDefinition[] = [
  defineTool({ name: 'test_simple_text', description: 'Returns simple text.', tier: 'read-only', parameters: none, execute: () => 'This is a simple text response for testing.' }),
  defineTool({ name: 'test_image_content', description: 'Returns an image.', tier: 'read-only', parameters: none, execute: () => [{ type: 'image', data: PNG, mediaType: 'image/png' }] }),
  defineTool({ name: 'test_audio_content', description: 'Returns audio.', tier: 'read-only', parameters: none, execute: () => [{ type: 'audio', data: WAV, mediaType: 'audio/wav' }] }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource.',
    tier: 'read-only',
    parameters: none,
    execute: () => [{ type: 'resource', uri: 'test://embedded-resource', mediaType: 'text/plain', text: 'This is an embedded resource content.' }],
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and a resource.',
    tier: 'read-only',
    parameters: none,
    execute: () => [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'resource', uri: 'test://mixed-content-resource', mediaType: 'application/json', text: '{"test":"data","value":123}' },
    ],
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Logs three lines while it runs.',
    tier: 'read-only',
    parameters: none,
    execute: async (_args, exec) => {
      exec.logger.info('Tool execution started');
      await sleep(50);
      exec.logger.info('Tool processing data');
      await sleep(50);
      exec.logger.info('Tool execution completed');
      return 'Logging test completed';
    },
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails.',
    tier: 'read-only',
    parameters: none,
    execute: () => {
      throw new ToolCallError('TEST_ERROR', 'This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50, 100 of 100.',
    tier: 'read-only',
    parameters: none,
    execute: async (_args, exec) => {
      const progress = (exec as { progress?: (update: { progress: number; total: number }) => void }).progress;
      for (const step of [0, 50, 100]) {
        progress?.({ progress: step, total: 100 });
        if (step < 100) await sleep(50);
      }
      return 'Progress test completed';
    },
  }),
  // weir tools do not elicit input of their own: this one is gated by an approval, which the
  // harness asks the client for through elicitation.
  defineTool({
    name: 'test_elicitation',
    description: 'Runs once the user approves it (asked through elicitation).',
    tier: 'dangerous',
    parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    execute: ({ message }) => `User response: accept (approved "${message}")`,
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'A tool whose input schema uses JSON Schema 2020-12 keywords.',
    tier: 'read-only',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    execute: () => 'ok',
  }),
];

const harness = createHarness();
await harness.use(
  definePlugin({
    name: 'conformance-tools',
    setup(ctx) {
      for (const tool of tools) ctx.tools.register(tool);
      ctx.guards.add((call) => (call.tier === 'dangerous' ? { decision: 'ask', reason: 'It is a dangerous tool.' } : undefined));
    },
  }),
);
// auth 'none': the suite's server scenarios send no Authorization header. This server holds only
// the scenarios' own tools and lives for the length of the run.
const served = await serveHarness(harness, { name: 'weir-conformance', version: '0.1.0', http: { port: Number(process.env.PORT ?? 0), auth: 'none' } });
process.stdout.write(`${served.url!.href}\n`);
const stop = () => void served.close().then(() => harness.close()).then(() => process.exit(0));
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
