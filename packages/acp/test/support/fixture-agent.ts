// The ACP server of this package as an editor meets it: its own process, spoken to over its
// standard input and output. The harness is weir's own (core, tools-fs, safety in `ask` mode,
// a file session store); the model is a strict scripted one (@weir/llm-mock), chosen by the
// scenario named in argv[2]. On exit it fails (status 3) when a scripted step was left unused.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAgent, createHarness, definePlugin, type LanguageModel, type ModelRequest, type ModelStreamEvent } from '@weir/core';
import { createScriptedModel, type ScriptedModel, type ScriptedStep } from '@weir/llm-mock';
import { safety } from '@weir/safety';
import { createFileSessionStore } from '@weir/session';
import { fsTools } from '@weir/tools-fs';
import { serveAcpOnStdio, type AcpHost } from '../../src/index.js';

const scenario = process.argv[2] ?? 'none';
const storeDir = process.env.WEIR_ACP_STORE!;
const permissionMs = process.env.WEIR_ACP_PERMISSION_MS === undefined ? undefined : Number(process.env.WEIR_ACP_PERMISSION_MS);

const lastTool = (request: ModelRequest) => [...request.messages].reverse().find((message) => message.role === 'tool')?.content ?? '';

const scripts: Record<string, readonly ScriptedStep[]> = {
  none: [],
  hello: [{ text: 'Hello from weir.', reasoning: 'The user greets me.' }],
  edit: [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'old line', new_string: 'new line' } }] },
    (request) => ({ text: `The edit said: ${lastTool(request)}` }),
  ],
  'edit-twice': [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'old line', new_string: 'new line' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'new line', new_string: 'newer line' } }] },
    (request) => ({ text: `The second edit said: ${lastTool(request)}` }),
  ],
  'edit-cancelled': [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'old line', new_string: 'new line' } }] },
  ],
  slow: [{ toolCalls: [{ name: 'slow_tool', arguments: {} }] }],
};

/** A model whose answer stops after its first chunk until SIGUSR2 releases it. */
function gatedModel(): LanguageModel & { remaining: number } {
  const state = { remaining: 1 };
  const answer = { text: 'First chunk. And the rest.', toolCalls: [], finishReason: 'stop' as const };
  return Object.assign(state, {
    id: 'mock:gated',
    complete: async () => answer,
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
      state.remaining -= 1;
      yield { type: 'text-delta', text: 'First chunk. ' };
      await new Promise<void>((resolve, reject) => {
        process.once('SIGUSR2', () => resolve());
        request.signal?.addEventListener('abort', () => reject(request.signal!.reason), { once: true });
      });
      yield { type: 'text-delta', text: 'And the rest.' };
      yield { type: 'finish', response: answer };
    },
  });
}

const model: (LanguageModel & { remaining: number }) | ScriptedModel =
  scenario === 'gated' ? gatedModel() : createScriptedModel(scripts[scenario] ?? [], { stream: true });

// A tool that runs until its call is aborted, and leaves a mark saying it saw the abort.
const slowTool = (cwd: string) =>
  definePlugin({
    name: 'slow-tool',
    setup(ctx) {
      ctx.tools.register({
        name: 'slow_tool',
        description: 'Waits until it is cancelled.',
        tier: 'read-only',
        parameters: { type: 'object', properties: {} },
        execute: (_args, exec) =>
          new Promise((_resolve, reject) => {
            exec.progress?.({ message: 'waiting' });
            exec.signal.addEventListener('abort', () => {
              writeFileSync(join(cwd, 'slow-tool-aborted.txt'), String(exec.signal.reason));
              reject(exec.signal.reason);
            }, { once: true });
          }),
      });
    },
  });

const store = createFileSessionStore(storeDir);
const host: AcpHost = {
  say: (line) => process.stderr.write(`${line}\n`),
  open: async ({ cwd, sessionId, approver, editorFiles }) => {
    const harness = createHarness();
    await harness.use(fsTools({ root: cwd, write: true, ...(editorFiles === undefined ? {} : { textSource: editorFiles }) }));
    await harness.use(slowTool(cwd));
    await harness.use(safety({ mode: 'ask', approver }));
    const session = sessionId === undefined ? await store.create() : await store.open(sessionId);
    const agent = createAgent({ model, harness, session, system: 'You are weir.' });
    return {
      id: session.id,
      agent,
      harness,
      turn: (content, options) => agent.turn(content, options),
      close: async () => {
        await session.close().catch(() => undefined);
        await harness.close().catch(() => undefined);
      },
    };
  },
};

const server = serveAcpOnStdio(host, { name: 'weir-fixture', version: '0.0.0' }, permissionMs, { editorFiles: process.env.WEIR_ACP_EDITOR_FILES === '1' });
await server.closed;
if (model.remaining > 0) {
  process.stderr.write(`[fixture] ${model.remaining} scripted model steps were not used\n`);
  process.exitCode = 3;
}
