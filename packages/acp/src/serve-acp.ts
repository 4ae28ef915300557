import { isAbsolute } from 'node:path';
import type { AgentContext, McpServer, RequestError as AcpRequestError, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import { AcpAuthRequiredError, type AcpHost, type AcpWeirSession } from './acp-host.js';
import { askClient } from './ask-client.js';
import { clientMcpServers } from './client-mcp-servers.js';
import { promptContent } from './prompt-content.js';
import { replayHistory } from './replay-history.js';
import { acpStopReason } from './stop-reason.js';
import { turnUpdates } from './turn-updates.js';
import { editorTextSource } from './editor-files.js';

/** What `serveAcp` runs on. */
export interface ServeAcpOptions {
  readonly host: AcpHost;
  /** What the client sends (standard input for an editor). */
  readonly input: ReadableStream<Uint8Array>;
  /** Where the answers go (standard output). Nothing else may write there. */
  readonly output: WritableStream<Uint8Array>;
  /** Shown by the editor: `{ name: 'weir', version }`. */
  readonly agentInfo: { readonly name: string; readonly version: string };
  /**
   * The file tools go through the editor, with a client that reads files for its agent: read_file
   * and edit_file see its buffers (unsaved changes included), write_file and edit_file write
   * through it when it writes files too, else a write over unsaved changes fails
   * (`editorTextSource`, handed to the host as `editorFiles`). Default false.
   */
  readonly editorFiles?: boolean;
  /** How long a permission request may wait for the editor. Default `DEFAULT_PERMISSION_TIMEOUT_MS`. */
  readonly permissionTimeoutMs?: number;
}

/** A running ACP server. */
export interface AcpServer {
  /**
   * Resolves once the client is gone (its input ended or the connection failed) and every session
   * is closed: running turns aborted and awaited, sessions saved. Never rejects.
   */
  readonly closed: Promise<void>;
  /** Ends the connection now, then as `closed`. */
  readonly close: () => Promise<void>;
}

/** The one authentication method weir offers, while its model lacks a key. */
const MODEL_KEY_METHOD = 'weir-model-key';

interface Running {
  readonly weir: AcpWeirSession;
  readonly cwd: string;
  /** The turn in progress, if any: `session/cancel` aborts it. */
  turn: { readonly stop: AbortController; readonly done: Promise<unknown> } | undefined;
}

/**
 * Serves weir as an ACP agent (protocol version 1) on a pair of newline-delimited JSON streams,
 * with the official SDK: `initialize`, `session/new`, `session/load` (the history replayed as
 * updates), `session/prompt` (updates streamed as the turn runs, then the stop reason) and
 * `session/cancel`. Each session's harness asks the editor (`session/request_permission`) where
 * weir's policy says ask. Malformed input is answered with a JSON-RPC error by the SDK and the
 * server goes on. Never throws; a handler's failure is the client's error answer, in one line.
 */
export function serveAcp(options: ServeAcpOptions): AcpServer {
  // The SDK (and zod with it) loads when a server starts, not when the package is imported: the
  // cold-start rule of docs/design.md. The input is not read before the connection exists, so
  // nothing the client sends meanwhile is lost.
  const started = import('@agentclientprotocol/sdk').then((sdk) => connect(sdk, options));
  const closed = started.then(
    (server) => server.closed,
    (error: unknown) => options.host.say?.(`[acp] the server did not start: ${errorLine(error)}`),
  );
  return {
    closed,
    close: async () => {
      const server = await started.catch(() => undefined);
      await server?.close();
      await closed;
    },
  };
}

type AcpSdk = typeof import('@agentclientprotocol/sdk');

function connect({ agent, ndJsonStream, PROTOCOL_VERSION, RequestError }: AcpSdk, options: ServeAcpOptions): AcpServer {
  const sessions = new Map<string, Running>();
  let client: AgentContext | undefined;
  let clientReadsFiles = false;
  let clientWritesFiles = false;
  const say = options.host.say ?? (() => undefined);

  const updatesTo = (sessionId: string) => {
    // In arrival order, and all written before the prompt's answer: the chain is awaited at the end.
    let chain: Promise<void> = Promise.resolve();
    const send = (update: SessionUpdate) => {
      const target = client;
      if (target === undefined) return;
      chain = chain.then(() => target.notify('session/update', { sessionId, update }).catch(() => undefined));
    };
    return { send, flushed: () => chain };
  };

  const authRequired = options.host.authRequired;
  const open = async (cwd: string, sessionId: string | undefined, servers: readonly McpServer[]): Promise<Running> => {
    if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
    const mcp = failsAsInvalidParams(RequestError, () => clientMcpServers(servers));
    let id = sessionId ?? '';
    const approver = askClient({ client: () => client!, sessionId: () => id, cwd, ...(options.permissionTimeoutMs === undefined ? {} : { timeoutMs: options.permissionTimeoutMs }) });
    const editorFiles =
      options.editorFiles === true && clientReadsFiles
        ? editorTextSource({
            read: (path) => client!.request('fs/read_text_file', { sessionId: id, path }).then((response) => response.content),
            write: clientWritesFiles ? (path, content) => client!.request('fs/write_text_file', { sessionId: id, path, content }).then(() => undefined) : undefined,
          })
        : undefined;
    const weir = await failsAsInternal(RequestError, () => options.host.open({ cwd, sessionId, approver, ...(editorFiles === undefined ? {} : { editorFiles }) }));
    id = weir.id;
    try {
      if (mcp.length > 0) {
        const { mcpServer } = await import('@weir/mcp');
        for (const server of mcp) await weir.harness.use(mcpServer(server));
      }
    } catch (error) {
      await weir.close();
      throw RequestError.internalError(undefined, `a plugin of the session did not load: ${errorLine(error)}`);
    }
    const running: Running = { weir, cwd, turn: undefined };
    sessions.set(weir.id, running);
    return running;
  };

  const find = (sessionId: string): Running => {
    const running = sessions.get(sessionId);
    if (running === undefined) throw RequestError.sessionNotFound(sessionId);
    return running;
  };

  const app = agent({ name: options.agentInfo.name })
    // Of the client's capabilities, only fs is used (`editorFiles`); the terminal never is: run_command
    // stays weir's own, in its sandbox (docs/acp.md, "Editor files and terminals").
    .onRequest('initialize', ({ params }) => {
      clientReadsFiles = params.clientCapabilities?.fs?.readTextFile === true;
      clientWritesFiles = params.clientCapabilities?.fs?.writeTextFile === true;
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
        },
        authMethods: authRequired === undefined ? [] : [{ id: MODEL_KEY_METHOD, name: "Set the model's key in weir's environment", description: authRequired }],
        agentInfo: { name: options.agentInfo.name, version: options.agentInfo.version },
      };
    })
    .onRequest('authenticate', () => {
      if (authRequired !== undefined) throw RequestError.authRequired(undefined, authRequired);
      return {};
    })
    .onRequest('session/new', async ({ params }) => {
      const running = await open(params.cwd, undefined, params.mcpServers);
      return { sessionId: running.weir.id };
    })
    .onRequest('session/load', async ({ params }) => {
      if (sessions.has(params.sessionId)) throw RequestError.invalidParams(undefined, `the session ${params.sessionId} is already open on this connection`);
      const running = await open(params.cwd, params.sessionId, params.mcpServers);
      const { send, flushed } = updatesTo(running.weir.id);
      for (const update of replayHistory(running.weir.agent.messages, running.cwd)) send(update);
      await flushed();
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const running = find(params.sessionId);
      if (running.turn !== undefined) throw RequestError.invalidRequest(undefined, 'a prompt of this session is still running; cancel it first');
      const stop = new AbortController();
      const { send, flushed } = updatesTo(running.weir.id);
      const turn = running.weir.turn(promptContent(params.prompt), { signal: stop.signal, onEvent: turnUpdates(running.cwd, send) });
      running.turn = { stop, done: turn.catch(() => undefined) };
      let stopReason: StopReason;
      try {
        const result = await turn;
        if ('refused' in result) send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: result.refused } });
        stopReason = 'refused' in result ? 'end_turn' : acpStopReason(result.stopReason);
      } catch (error) {
        if (!stop.signal.aborted) throw RequestError.internalError(undefined, errorLine(error));
        stopReason = 'cancelled';
      } finally {
        running.turn = undefined;
      }
      await flushed();
      return { stopReason };
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.turn?.stop.abort(new Error('The editor cancelled the turn.'));
    });

  const connection = app.connect(ndJsonStream(options.output, options.input));
  client = connection.client;
  const closed = connection.closed
    .catch(() => undefined)
    .then(async () => {
      // The client is gone: stop what runs, wait for it (its records are written), then save and close.
      const all = [...sessions.values()];
      sessions.clear();
      for (const running of all) running.turn?.stop.abort(new Error('The editor disconnected.'));
      await Promise.all(all.map((running) => running.turn?.done));
      await Promise.all(all.map((running) => running.weir.close()));
      if (all.length > 0) say(`[acp] the client disconnected: ${all.length} session${all.length === 1 ? '' : 's'} saved`);
    });
  return {
    closed,
    close: async () => {
      connection.close();
      await closed;
    },
  };
}

async function failsAsInternal<T>(RequestError: typeof AcpRequestError, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RequestError) throw error;
    if (error instanceof AcpAuthRequiredError) throw RequestError.authRequired(undefined, error.message);
    throw RequestError.internalError(undefined, errorLine(error));
  }
}

function failsAsInvalidParams<T>(RequestError: typeof AcpRequestError, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw RequestError.invalidParams(undefined, errorLine(error));
  }
}

/** An error as one line, for the client. */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim();
}
