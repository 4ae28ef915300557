/** Stable codes of a server that could not be reached. */
export type McpServerErrorCode = 'MCP_START_FAILED' | 'MCP_START_TIMEOUT' | 'MCP_AUTH_FAILED';

/**
 * A server that failed to start, crashed or hung during start-up. Its message names the server
 * and ends with the tail of its stderr, which is usually where the reason is. `harness.use()`
 * wraps it in `PLUGIN_SETUP_FAILED` (it is the `cause`).
 */
export class McpServerError extends Error {
  override readonly name = 'McpServerError';
  readonly code: McpServerErrorCode;
  readonly server: string;
  /** The last lines the server wrote to stderr (stdio servers only; may be empty). */
  readonly stderr: string;

  constructor(code: McpServerErrorCode, server: string, message: string, stderr: string, options?: ErrorOptions) {
    super(stderr === '' ? message : `${message}\n--- stderr of "${server}" (last lines) ---\n${stderr}`, options);
    this.code = code;
    this.server = server;
    this.stderr = stderr;
  }
}
