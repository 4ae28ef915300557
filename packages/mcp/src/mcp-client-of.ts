import type { CreateMessageRequestParamsBase, CreateMessageResult, ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExecution } from '@weir/core';

/**
 * What a tool body may ask of the MCP client its call came from. Each answer is the client's (its
 * user's form, its model's text): data to check, never an instruction. Each request ends when the
 * call is aborted or passes its deadline.
 */
export interface McpClientRequests {
  /** Whether the client offers elicitation (`elicit` throws otherwise). */
  readonly canElicit: boolean;
  /** Whether the client offers sampling (`sample` throws otherwise). */
  readonly canSample: boolean;
  /**
   * Asks the client's user to fill in a form (`elicitation/create`, form mode): `message` and a flat
   * object schema of strings, numbers, booleans and enums. An accepted answer has been checked
   * against the schema by the SDK. Throws when the client does not offer elicitation or fails.
   */
  elicit(request: Pick<ElicitRequestFormParams, 'message' | 'requestedSchema'>): Promise<ElicitResult>;
  /**
   * Asks the client's model for a message (`sampling/createMessage`); the client may show it to its
   * user first, change it, or refuse. Throws when the client does not offer sampling or refuses.
   */
  sample(request: CreateMessageRequestParamsBase): Promise<CreateMessageResult>;
}

// Made on the first ask: most calls never ask, and they pay for one WeakMap entry only.
const clients = new WeakMap<ToolExecution, { make: () => McpClientRequests; made?: McpClientRequests }>();

/**
 * The MCP client that made this call, when `serveHarness` runs it for one; `undefined` for any other
 * call (the harness's own agent, another surface). For a body that needs input only a person or a
 * model at the client can give; a body that must also run without one says what it needs instead.
 */
export function mcpClientOf(exec: ToolExecution): McpClientRequests | undefined {
  const entry = clients.get(exec);
  if (entry === undefined) return undefined;
  entry.made ??= entry.make();
  return entry.made;
}

/** Ties `exec` (the one the bridge hands the body) to the client that made the call. */
export function bindMcpClient(exec: ToolExecution, make: () => McpClientRequests): ToolExecution {
  clients.set(exec, { make });
  return exec;
}
