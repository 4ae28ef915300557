import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpClientRequests } from './mcp-client-of.js';

/** MCP's log levels, least severe first. */
export const MCP_LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/** What a harness call made on behalf of an MCP client needs to talk back to that client. */
export interface McpCallScope {
  /** Sends a notification tied to the request (progress, log lines). */
  readonly notify: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
  /** The client's progress token for this request, if it asked for progress. */
  readonly progressToken: string | number | undefined;
  /** The least severe level the client wants (`logging/setLevel`); `undefined` until it says. */
  readonly logLevel: () => McpLogLevel | undefined;
  /** Asks the client through elicitation; `undefined` when the client does not offer it. */
  readonly elicit: ((message: string, signal: AbortSignal) => Promise<'accept' | 'decline' | 'cancel'>) | undefined;
  /** What a tool body may ask the client itself (`mcpClientOf(exec)`), given the call's signal. */
  readonly requests?: (signal: AbortSignal) => McpClientRequests;
}

/**
 * The scope of the MCP request a harness call runs for. The harness's approval responder and its
 * execute wrapper are shared by every caller; this is how they know which client (if any) asked.
 */
export const mcpCallScope = new AsyncLocalStorage<McpCallScope>();
