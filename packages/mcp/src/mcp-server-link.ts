import { redactUrl, ToolCallError, type Logger, type ToolArguments, type ToolExecution } from '@weir/core';
import type { McpToolInfo } from './describe-tool.js';
import type { ClientSdk } from './load-sdk.js';
import { CallCancelSignal } from './call-cancel-signal.js';
import { toParts, type McpPart } from './mcp-content.js';
import { toolValue } from './mcp-tool-value.js';
import type { ResolvedServerOptions } from './mcp-server-options.js';
import { openMcpSession, type McpSession } from './open-mcp-session.js';
import { MAX_ANSWER_TEXT, OUTPUT_TOO_LARGE_RPC } from './oversized-answer.js';
import { oneLine } from './check-tool-listing.js';
import { runToolTask } from './run-tool-task.js';
import { answerElicitation } from './client-requests/answer-elicitation.js';
import { answerSampling } from './client-requests/answer-sampling.js';
import type { AskApprover, CallsInFlight } from './client-requests/server-request-call.js';
import type { ResourceUpdates } from './resource-updates.js';

/** What a request can be aborted by: a tool call's `exec`, or any signal. */
export interface AbortSource {
  readonly signal: AbortSignal;
  readonly onAbort?: ToolExecution['onAbort'];
}

/** A progress update as the core's `exec.progress` takes it. */
interface ProgressUpdate {
  readonly progress?: number;
  readonly total?: number;
  readonly message?: string;
}

// The SDK's error codes this link treats apart.
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/**
 * One server, seen from the plugin: the current session, started again on the next call after the
 * server went away, at most `reconnectAttempts` times in a row without a call completing in between
 * (a server that crashes on every call is not restarted forever). Tool-list changes and restarts
 * both end in `onTools`, with the server's whole list.
 */
export class McpServerLink implements CallsInFlight {
  #session: McpSession | undefined;
  /** The calls to the server under way: a server's elicitation or sampling request is asked on their behalf. */
  readonly #inFlight = new Set<ToolExecution>();
  #starting: Promise<McpSession> | undefined;
  #restartsWithoutSuccess = 0;
  #closed = false;
  #refreshing: Promise<void> | undefined;
  #refreshAgain = false;
  /** The resources the model subscribed to on this server (set by the plugin when the server offers subscriptions). */
  resourceUpdates: ResourceUpdates | undefined;

  constructor(
    private readonly options: ResolvedServerOptions,
    private readonly sdk: ClientSdk,
    private readonly logger: Logger,
    private readonly onTools: (tools: readonly McpToolInfo[]) => void,
    /** The server's prompts may have changed: it said so (`prompts/list_changed`), or it was started again. */
    private readonly onPromptsChanged: () => void,
    /** Asks the harness's approver (the plugin's `ctx.approval.request`). */
    private readonly ask: AskApprover,
  ) {}

  current(): readonly ToolExecution[] {
    return [...this.#inFlight];
  }

  /** The server process of the current session (stdio only), for tests and diagnostics. */
  get pid(): number | undefined {
    return this.#session?.pid;
  }

  /** Starts the first session and lists the tools; throws `McpServerError` with the server's stderr tail. */
  async start(): Promise<readonly McpToolInfo[]> {
    const session = await this.#open();
    try {
      return await this.#listTools(session);
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /**
   * Calls `tool` and gives the weir tool's value (see `toolValue`); every failure is a `ToolCallError`
   * the model can read. With `asTask`, the call runs through the protocol's task API (`runToolTask`).
   */
  callTool(tool: string, args: ToolArguments, exec: ToolExecution, asTask = false): Promise<object> {
    const session = this.#session;
    // A session that is up is used at once, without the turn of the microtask queue `#current` costs.
    if (session !== undefined && !session.closed && !this.#closed) return this.#call(session, tool, args, exec, asTask);
    return this.#current().then((fresh) => this.#call(fresh, tool, args, exec, asTask));
  }

  async #call(session: McpSession, tool: string, args: ToolArguments, exec: ToolExecution, asTask: boolean, retried = false): Promise<object> {
    const cancel = new CallCancelSignal();
    const stopListening = forwardAbort(exec, cancel);
    this.#inFlight.add(exec);
    try {
      // `request`, not `callTool`: the pipeline validates `structuredContent` against the tool's
      // output schema already (callTool would check it a second time). The pipeline's arguments are
      // frozen; the SDK only serialises them, so they go as they are. The answer is read with the
      // SDK's loosest result schema and field by field here: one content block of a type the SDK
      // does not know must not lose the whole result (it becomes a note among the known blocks).
      const params = { name: tool, arguments: args as Record<string, unknown> };
      const onprogress = progressForwarder(this.logger, this.options.name, tool, exec);
      const result = asTask
        ? await runToolTask({ client: session.client, sdk: this.sdk, server: this.options.name, tool, params, cancel, idleTimeoutMs: this.options.idleTimeoutMs, onProgress: onprogress, logger: this.logger })
        : await session.client.request({ method: 'tools/call', params }, this.sdk.ResultSchema, {
            signal: cancel.asAbortSignal(),
            timeout: this.options.idleTimeoutMs,
            resetTimeoutOnProgress: true,
            onprogress,
          });
      this.#restartsWithoutSuccess = 0;
      const parts = toParts(Array.isArray(result.content) ? result.content : []);
      if (result.isError === true) {
        const text = parts.map(textOf).join('\n').trim();
        throw new ToolCallError('MCP_TOOL_ERROR', text || `The MCP tool "${tool}" reported an error without a message.`);
      }
      const structured = result.structuredContent;
      return toolValue(parts, isRecord(structured) ? structured : undefined);
    } catch (error) {
      const lost = !cancel.aborted && session.kind !== 'stdio' ? this.#httpLoss(error) : undefined;
      if (lost !== undefined) {
        // The HTTP server restarted or went away: this session is over, and the next one is a new session.
        this.logger.warn({ server: this.options.name, reason: lost }, 'the MCP server lost the HTTP session; a new one will be made');
        void session.close().catch(() => undefined);
        // A session the server no longer knows (404) never ran the call: it is sent once more, on a
        // new one. Not a task: its session may have been lost after the task was made and ran.
        if (lost === 'session' && !retried && !asTask && !this.#closed) {
          stopListening();
          return this.#current().then((fresh) => this.#call(fresh, tool, args, exec, asTask, true));
        }
        throw new ToolCallError(
          'MCP_SERVER_UNAVAILABLE',
          `The MCP server "${this.options.name}"${this.options.kind === 'http' ? ` (${redactUrl(this.options.url)})` : ''} could not be reached for the call to "${tool}" (${oneLine(message(error))}); a new session is tried on the next call.`,
          { cause: error },
        );
      }
      throw this.#explain(error, tool, session);
    } finally {
      this.#inFlight.delete(exec);
      stopListening();
    }
  }

  /** True when the server of the current session runs tool calls as tasks (`tasks.requests.tools.call`). */
  get offersToolTasks(): boolean {
    return this.#session?.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
  }

  /** True when the server of the current session offers resources (its `resources` capability). */
  get offersResources(): boolean {
    return this.#session?.client.getServerCapabilities()?.resources !== undefined;
  }

  /** True when the server of the current session lets a client subscribe to resource updates (`resources.subscribe`). */
  get offersResourceSubscriptions(): boolean {
    return this.#session?.client.getServerCapabilities()?.resources?.subscribe === true;
  }

  /** True when the server of the current session offers prompts (its `prompts` capability). */
  get offersPrompts(): boolean {
    return this.#session?.client.getServerCapabilities()?.prompts !== undefined;
  }

  /** The server's whole `prompts/list`, every page (at most 100), entries as sent. */
  async listPrompts(): Promise<readonly unknown[]> {
    const prompts: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page += 1) {
      const listed = await this.request('prompts/list', cursor === undefined ? {} : { cursor });
      if (!Array.isArray(listed.prompts)) throw new Error(`the server answered prompts/list without a list of prompts (got ${typeof listed.prompts})`);
      prompts.push(...listed.prompts);
      cursor = typeof listed.nextCursor === 'string' ? listed.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return prompts;
  }

  /**
   * One request of the protocol other than a tool call (`resources/list`, `resources/read`,
   * `prompts/get`), under the call's abort (when given) and the idle deadline; the answer is the
   * result object, read loosely. Failures are `ToolCallError`s the model can read, as a tool
   * call's are.
   */
  async request(method: string, params: Record<string, unknown>, exec?: AbortSource): Promise<Record<string, unknown>> {
    const session = this.#session !== undefined && !this.#session.closed && !this.#closed ? this.#session : await this.#current();
    const cancel = new CallCancelSignal();
    const stopListening = exec === undefined ? noop : forwardAbort(exec, cancel);
    // A tool call's request (the resource tool's): a server's request meanwhile may belong to it.
    const call = exec !== undefined && 'run' in exec ? (exec as ToolExecution) : undefined;
    if (call !== undefined) this.#inFlight.add(call);
    try {
      return await session.client.request({ method, params }, this.sdk.ResultSchema, { signal: cancel.asAbortSignal(), timeout: this.options.idleTimeoutMs });
    } catch (error) {
      throw this.#explain(error, method, session);
    } finally {
      if (call !== undefined) this.#inFlight.delete(call);
      stopListening();
    }
  }

  /** `'session'` when the server no longer knows the session (404), `'unreachable'` when the request found no server; else `undefined`. */
  #httpLoss(error: unknown): 'session' | 'unreachable' | undefined {
    if (error instanceof this.sdk.McpError || error instanceof ToolCallError) return undefined;
    if (error instanceof this.sdk.StreamableHTTPError) return error.code === 404 ? 'session' : undefined;
    const code = (error as { cause?: { code?: unknown } })?.cause?.code;
    if (error instanceof TypeError || code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'unreachable';
    return undefined;
  }

  /** Re-lists the tools after `notifications/tools/list_changed`; runs one refresh at a time, never two at once. */
  refreshTools(): void {
    if (this.#closed) return;
    if (this.#refreshing !== undefined) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshing = (async () => {
      do {
        this.#refreshAgain = false;
        const session = this.#session;
        if (session === undefined || session.closed || this.#closed) return;
        try {
          const tools = await this.#listTools(session);
          if (!this.#closed && session === this.#session) this.onTools(tools);
        } catch (error) {
          this.logger.warn({ server: this.options.name, err: error }, 'could not refresh the tool list after list_changed; the previous tools stay');
        }
      } while (this.#refreshAgain);
    })().finally(() => {
      this.#refreshing = undefined;
    });
  }

  /** Closes the session and ends the server process group. Idempotent; later calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const starting = this.#starting;
    const session = this.#session;
    this.#session = undefined;
    await Promise.allSettled([session?.close(), starting?.then((late) => late.close())]);
    await this.#refreshing;
  }

  async #current(): Promise<McpSession> {
    if (this.#closed) throw new ToolCallError('MCP_SERVER_UNAVAILABLE', `The MCP server "${this.options.name}" has been unloaded.`);
    const session = this.#session;
    if (session !== undefined && !session.closed) return session;
    if (this.#starting !== undefined) return this.#starting;
    if (this.#restartsWithoutSuccess >= this.options.reconnectAttempts) {
      throw new ToolCallError(
        'MCP_SERVER_UNAVAILABLE',
        `The MCP server "${this.options.name}" stopped ${this.#restartsWithoutSuccess + 1} times without completing a call; weir stopped restarting it. Do not call its tools again in this session.`,
      );
    }
    this.#restartsWithoutSuccess += 1;
    this.logger.warn({ server: this.options.name, attempt: this.#restartsWithoutSuccess }, 'the MCP server went away; starting it again');
    try {
      const fresh = await this.#open();
      if (this.#closed) {
        await fresh.close();
        throw new ToolCallError('MCP_SERVER_UNAVAILABLE', `The MCP server "${this.options.name}" has been unloaded.`);
      }
      // Its tools may differ after a restart: the list is swapped like after list_changed.
      const tools = await this.#listTools(fresh);
      this.onTools(tools);
      this.onPromptsChanged();
      this.#resubscribe(fresh);
      return fresh;
    } catch (error) {
      if (error instanceof ToolCallError) throw error;
      throw new ToolCallError('MCP_SERVER_UNAVAILABLE', `The MCP server "${this.options.name}" went away and could not be started again: ${message(error)}`, { cause: error });
    }
  }

  async #open(): Promise<McpSession> {
    const starting = openMcpSession(this.options, this.sdk, {
      onToolsChanged: () => this.refreshTools(),
      onLost: () => this.logger.warn({ server: this.options.name }, 'the MCP server closed the connection'),
      onError: (error) => this.logger.debug({ server: this.options.name, err: error }, 'MCP transport error'),
      onElicit: (params, signal) => answerElicitation(params, signal, { server: this.options.name, elicit: this.options.elicit, ask: this.ask, calls: this, logger: this.logger }),
      onSample: this.#sampler(),
    });
    this.#starting = starting;
    try {
      const session = await starting;
      session.client.setNotificationHandler(this.sdk.PromptListChangedNotificationSchema, () => this.onPromptsChanged());
      session.client.setNotificationHandler(this.sdk.ResourceUpdatedNotificationSchema, (notification) => this.resourceUpdates?.updated(notification.params.uri));
      this.#session = session;
      return session;
    } finally {
      if (this.#starting === starting) this.#starting = undefined;
    }
  }

  /** A new session knows none of the old one's subscriptions: they are sent again, each failure logged. */
  #resubscribe(session: McpSession): void {
    for (const uri of this.resourceUpdates?.subscribed() ?? []) {
      session.client.request({ method: 'resources/subscribe', params: { uri } }, this.sdk.ResultSchema, { timeout: this.options.idleTimeoutMs }).catch((error: unknown) => {
        this.logger.warn({ server: this.options.name, uri, err: error }, 'could not subscribe again to a resource after the MCP server restarted');
      });
    }
  }

  #sampler(): ((params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>) | undefined {
    const sampling = this.options.sampling;
    if (sampling === undefined) return undefined;
    const { McpError } = this.sdk;
    return (params, signal) =>
      answerSampling(params, signal, { server: this.options.name, sampling, ask: this.ask, calls: this, logger: this.logger, fail: (code, text) => new McpError(code, text) });
  }

  async #listTools(session: McpSession): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    // A server that pages forever is cut off: 100 pages is far more than any real server has.
    for (let page = 0; page < 100; page += 1) {
      // Read loosely (not with the SDK's listTools): one odd tool must not fail the whole list;
      // McpToolSet skips or adapts each odd entry with a warning naming it.
      const listed = await session.client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, this.sdk.ResultSchema, { timeout: this.options.startTimeoutMs });
      if (!Array.isArray(listed.tools)) throw new Error(`the server answered tools/list without a list of tools (got ${typeof listed.tools})`);
      tools.push(...(listed.tools as McpToolInfo[]));
      cursor = typeof listed.nextCursor === 'string' ? listed.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return tools;
  }

  #explain(error: unknown, tool: string, session: McpSession): unknown {
    if (error instanceof ToolCallError) return error;
    if (error instanceof this.sdk.McpError) {
      if (error.code === CONNECTION_CLOSED || session.closed) {
        const tail = session.stderrTail();
        return new ToolCallError(
          'MCP_SERVER_UNAVAILABLE',
          `The MCP server "${this.options.name}" went away during the call to "${tool}"; it will be started again on the next call.${tail === '' ? '' : ` Its last stderr lines: ${tail.slice(-500)}`}`,
          { cause: error },
        );
      }
      if (error.code === OUTPUT_TOO_LARGE_RPC) {
        return new ToolCallError('OUTPUT_TOO_LARGE', `The answer of the MCP tool "${tool}" passed the cap of ${MAX_ANSWER_TEXT} for one answer and was dropped (${error.message}); ask for less: a smaller range, a page, a filter.`, { cause: error });
      }
      if (error.code === REQUEST_TIMEOUT) {
        return new ToolCallError('MCP_IDLE_TIMEOUT', `The MCP tool "${tool}" sent neither a result nor progress for ${this.options.idleTimeoutMs} ms and was cancelled.`, { cause: error });
      }
      return new ToolCallError('MCP_ERROR', `The MCP server "${this.options.name}" refused the call to "${tool}": ${error.message}`, { cause: error });
    }
    if (session.closed) {
      return new ToolCallError('MCP_SERVER_UNAVAILABLE', `The MCP server "${this.options.name}" went away during the call to "${tool}"; it will be started again on the next call.`, { cause: error });
    }
    return error;
  }
}

/**
 * Aborts `cancel` when the call is interrupted; returns what stops listening. Through `exec.onAbort`
 * when the pipeline gives it (no AbortSignal is made), else through `exec.signal`.
 */
function forwardAbort(exec: AbortSource, cancel: CallCancelSignal): () => void {
  if (exec.onAbort !== undefined) return exec.onAbort((reason) => cancel.abort(reason));
  const signal = exec.signal;
  const follow = (): void => {
    try {
      cancel.abort(signal.reason);
    } catch {
      // The SDK's listener sends the cancellation and catches what fails; nothing reaches here
      // that could be told anyone, and a throw from an AbortSignal listener would end the process.
    }
  };
  if (signal.aborted) {
    follow();
    return noop;
  }
  signal.addEventListener('abort', follow, { once: true });
  return () => signal.removeEventListener('abort', follow);
}

function noop(): void {}

// Made by a function, not inline: a closure the call makes, kept small (and unnamed, so a
// transpiler keeping names does not rename it on every call).
function progressForwarder(logger: Logger, server: string, tool: string, exec: ToolExecution): (update: ProgressUpdate) => void {
  // Read once: an `exec` made by hand (a wrapper, a test) may have no `progress`.
  const report = (exec as { progress?: ToolExecution['progress'] }).progress;
  return (update) => {
    logger.debug({ server, tool, progress: update }, 'progress');
    report?.call(exec, { progress: update.progress, total: update.total, message: update.message });
  };
}

function textOf(part: McpPart): string {
  return part.type === 'text' ? part.text : '';
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
