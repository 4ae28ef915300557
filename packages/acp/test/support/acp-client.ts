// The editor's side for the tests: the ACP SDK's own client app, connected over the real pipes of
// a spawned agent process (the fixture, or `weir acp`).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { client, ndJsonStream, type ClientConnection, type RequestPermissionRequest, type RequestPermissionResponse, type SessionNotification } from '@agentclientprotocol/sdk';

export const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = pathToFileURL(join(repo, 'node_modules/tsx/dist/esm/index.mjs')).href;
export const fixtureAgent = fileURLToPath(new URL('./fixture-agent.ts', import.meta.url));

export interface AgentProcess {
  readonly child: ChildProcess;
  readonly connection: ClientConnection;
  /** Every `session/update` received, in order. */
  readonly updates: SessionNotification[];
  /** Resolves with the first update (from now on or already received) that `match` accepts. */
  readonly waitForUpdate: (match: (notification: SessionNotification) => boolean) => Promise<SessionNotification>;
  /** Every permission request received. */
  readonly permissions: RequestPermissionRequest[];
  /** How permission requests are answered (default: allow once). */
  answer: (request: RequestPermissionRequest) => Promise<RequestPermissionResponse>;
  /** The editor's open buffers by absolute path, for `fs/read_text_file` (a path not here is read from disk). */
  readonly buffers: Map<string, string>;
  /** Every `fs/write_text_file` received (it sets the buffer; the disk is left as it is). */
  readonly writes: { path: string; content: string }[];
  /** Standard error so far. */
  stderr: () => string;
  /** Resolves with the exit status once the process is gone. */
  readonly exited: Promise<number | null>;
}

/** Spawns `args` (node with tsx, from the sources) and connects the SDK's client to its stdio. */
export function spawnAgent(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): AgentProcess {
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=@weir/source', ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (piece: string) => (stderr += piece));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const waiters: { match: (n: SessionNotification) => boolean; resolve: (n: SessionNotification) => void }[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const self: AgentProcess = {
    child,
    updates,
    permissions,
    answer: async (request) => ({ outcome: { outcome: 'selected', optionId: request.options.find((option) => option.kind === 'allow_once')!.optionId } }),
    stderr: () => stderr,
    buffers: new Map(),
    writes: [],
    exited,
    waitForUpdate: (match) => {
      const seen = updates.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    connection: undefined as unknown as ClientConnection,
  };
  const app = client({ name: 'weir-test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      for (const waiter of [...waiters]) {
        if (waiter.match(params)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params);
        }
      }
    })
    .onRequest('fs/read_text_file', async ({ params }) => ({ content: self.buffers.get(params.path) ?? (await readFile(params.path, 'utf8')) }))
    .onRequest('fs/write_text_file', ({ params }) => {
      self.writes.push({ path: params.path, content: params.content });
      self.buffers.set(params.path, params.content);
      return {};
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      return self.answer(params);
    });
  const stream = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  (self as { connection: ClientConnection }).connection = app.connect(stream);
  return self;
}

/** The text of the `agent_message_chunk`s among `updates`, joined. */
export function answerText(updates: readonly SessionNotification[]): string {
  return updates.map((n) => (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : '')).join('');
}
