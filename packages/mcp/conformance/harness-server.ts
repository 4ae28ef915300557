// serveHarness over Streamable HTTP with the tools the conformance suite's server scenarios call,
// each an ordinary weir tool. Prints the URL on stdout and serves until stdin closes.
// Run: tsx --conditions=@weir/source conformance/harness-server.ts
import { createHarness, definePlugin, defineTool, ToolCallError, type ToolDefinition } from '@weir/core';
import { mcpClientOf, serveHarness, type McpPromptSource, type McpResourceContents, type McpResourceSource } from '../src/index.js';

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
  // This one asks nothing itself: it is gated by an approval, which the harness asks the client
  // for through elicitation (the tools below ask the client themselves, through mcpClientOf).
  defineTool({
    name: 'test_elicitation',
    description: 'Runs once the user approves it (asked through elicitation).',
    tier: 'dangerous',
    parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    execute: ({ message }) => `User response: accept (approved "${message}")`,
  }),
  // Tools that need input only the client can give: they ask it through mcpClientOf(exec).
  defineTool({
    name: 'test_sampling',
    description: "Asks the client's model (sampling).",
    tier: 'read-only',
    parameters: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    execute: async ({ prompt }, exec) => {
      const client = mcpClientOf(exec);
      if (!client?.canSample) throw new ToolCallError('NO_SAMPLING', 'This call did not come from an MCP client that offers sampling.');
      const answer = await client.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
      return `LLM response: ${answer.content.type === 'text' ? answer.content.text : `[${answer.content.type}]`}`;
    },
  }),
  elicitingTool('test_elicitation_sep1034_defaults', 'Please review and update the form fields with defaults', {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  }),
  elicitingTool('test_elicitation_sep1330_enums', 'Please select options from the enum fields', {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: [1, 2, 3].map((n) => ({ const: `value${n}`, title: `${['First', 'Second', 'Third'][n - 1]} Option` })) },
    legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: { anyOf: [1, 2, 3].map((n) => ({ const: `value${n}`, title: `${['First', 'Second', 'Third'][n - 1]} Choice` })) },
    },
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

// The resources the scenarios read, as a resource source of the harness's own (a real harness would
// pass `await workspaceResources({ root })`; the scenarios name fixed test:// URIs).
const fixed: Readonly<Record<string, McpResourceContents>> = {
  'test://static-text': { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
  'test://static-binary': { uri: 'test://static-binary', mimeType: 'image/png', blob: PNG },
  'test://watched-resource': { uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' },
};
const templated = (uri: string) => /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
const resources: McpResourceSource = {
  list: async () => ({
    resources: [
      { uri: 'test://static-text', name: 'static-text', description: 'A static text resource.', mimeType: 'text/plain' },
      { uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (a PNG).', mimeType: 'image/png' },
      { uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource one may subscribe to.', mimeType: 'text/plain' },
    ],
  }),
  templates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', description: 'Data for an id.', mimeType: 'application/json' }],
  read: async (uri) => {
    const id = templated(uri);
    if (id !== undefined) return { ok: true, contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
    const found = fixed[uri];
    return found === undefined ? { ok: false, reason: 'not-found', message: `No resource ${uri}.` } : { ok: true, contents: [found] };
  },
  version: async (uri) => (fixed[uri] !== undefined || templated(uri) !== undefined ? { ok: true, version: '1' } : { ok: false, reason: 'not-found', message: `No resource ${uri}.` }),
  complete: async (template, argument, value) => (template === 'test://template/{id}/data' && argument === 'id' ? ['123', '456'].filter((id) => id.startsWith(value)) : []),
};

// The scenarios' prompts (a real harness would pass `await commandPrompts({ commands, skills })`).
const prompts: McpPromptSource = {
  list: () => [
    { name: 'test_simple_prompt', description: 'A simple prompt without arguments.' },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two arguments.',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    { name: 'test_prompt_with_embedded_resource', description: 'A prompt that embeds a resource.', arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }] },
    { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
  ],
  get: async (name, args) => {
    switch (name) {
      case 'test_simple_prompt':
        return { ok: true, messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] };
      case 'test_prompt_with_arguments':
        if (args.arg1 === undefined || args.arg2 === undefined) return { ok: false, reason: 'invalid', message: 'arg1 and arg2 are required.' };
        return { ok: true, messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }] };
      case 'test_prompt_with_embedded_resource':
        if (args.resourceUri === undefined) return { ok: false, reason: 'invalid', message: 'resourceUri is required.' };
        return {
          ok: true,
          messages: [
            { role: 'user', content: { type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        };
      case 'test_prompt_with_image':
        return {
          ok: true,
          messages: [
            { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        };
      default:
        return { ok: false, reason: 'not-found', message: `No prompt ${name}.` };
    }
  },
  complete: async (name, argument, value) => (name === 'test_prompt_with_arguments' && argument === 'arg1' ? ['paris', 'park', 'party', 'test-value'].filter((word) => word.startsWith(value)) : []),
};

/** A tool that asks the client's user to fill in a form of `properties`, and says what came back. */
function elicitingTool(name: string, message: string, properties: Record<string, Record<string, unknown>>): ToolDefinition {
  return defineTool({
    name,
    description: "Asks the client's user to fill in a form (elicitation).",
    tier: 'read-only',
    parameters: none,
    execute: async (_args, exec) => {
      const client = mcpClientOf(exec);
      if (!client?.canElicit) throw new ToolCallError('NO_ELICITATION', 'This call did not come from an MCP client that offers elicitation.');
      const answer = await client.elicit({ message, requestedSchema: { type: 'object', properties, required: [] } as never });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  });
}

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
const served = await serveHarness(harness, { name: 'weir-conformance', version: '0.1.0', http: { port: Number(process.env.PORT ?? 0), auth: 'none' }, resources, prompts });
process.stdout.write(`${served.url!.href}\n`);
const stop = () => void served.close().then(() => harness.close()).then(() => process.exit(0));
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
