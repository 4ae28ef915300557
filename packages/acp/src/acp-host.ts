import type { Agent, Content, Harness, TurnOptions, TurnResult } from '@weir/core';

/**
 * What weir's approver is asked, as `@weir/safety`'s `ApproverRequest` has it (a structural copy:
 * this package does not load safety). `session` is what "allow always" would grant for the
 * session; `undefined` when only "allow once" is on offer.
 */
export interface PermissionAsk {
  readonly callId: string;
  readonly callKey: string;
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly reason: string | undefined;
  readonly signal: AbortSignal;
  readonly session?: { readonly description: string } | undefined;
}

/** The answer weir's approver takes (`@weir/safety`'s `ApproverAnswer`). */
export interface PermissionAnswer {
  readonly decision: 'allow' | 'deny';
  readonly scope?: 'once' | 'session';
  readonly message?: string;
}

/** The approver an ACP session hands to the harness it opens: every `ask` goes to the editor. */
export type AcpApprover = (request: PermissionAsk) => Promise<PermissionAnswer>;

/** An MCP server the client passed, in `@weir/mcp`'s `mcpServer()` options. */
export type AcpMcpServer =
  | { readonly name: string; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> }
  | { readonly name: string; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** What `AcpHost.open` is asked for. */
export interface AcpOpenRequest {
  /** The session's workspace: the client's `cwd` (absolute). */
  readonly cwd: string;
  /** `session/load`: the weir session to open again; `undefined` for a new one. */
  readonly sessionId: string | undefined;
  /** The approver to give the harness (it asks the client). */
  readonly approver: AcpApprover;
  /**
   * With the `editorFiles` setting and a client that reads files: the editor's buffers, to give
   * the file tools as their text source (`fsTools({ textSource })` of `@weir/tools-fs`).
   */
  readonly editorFiles?: AcpEditorFiles | undefined;
}

/**
 * The editor's files as `@weir/tools-fs`'s `TextSource` has them (a structural copy): `read` the
 * buffer's text (`undefined`: read the disk), `write` through the editor (`false`: write the disk;
 * throws a `ToolCallError` to refuse).
 */
export interface AcpEditorFiles {
  readonly read: (path: string) => Promise<string | undefined>;
  readonly write: (path: string, text: string) => Promise<boolean>;
}

/** A prompt the host did not run, and why (one line the editor shows). */
export interface AcpRefusedPrompt {
  readonly refused: string;
}

/** One weir session the ACP server drives. */
export interface AcpWeirSession {
  /** The weir session's id: the ACP `sessionId`. */
  readonly id: string;
  readonly agent: Agent;
  readonly harness: Harness;
  /**
   * Runs one turn (the host may wrap `agent.turn`, with hooks say). `{ refused }` when the host
   * refused the prompt (a hook blocked it): the editor is shown the reason as the agent's message,
   * and the turn ends as `end_turn`.
   */
  readonly turn: (content: Content, options: TurnOptions) => Promise<TurnResult | AcpRefusedPrompt>;
  /** Saves and closes the session and its harness. Never rejects. */
  readonly close: () => Promise<void>;
}

/**
 * Where the ACP server gets its weir sessions from: the CLI's config, model, trust and session
 * store. `open` rejects with a one-line message the client is shown (no such session, locked).
 */
export interface AcpHost {
  /** Rejects with an {@link AcpAuthRequiredError} when this session's model needs a key that is not set. */
  readonly open: (request: AcpOpenRequest) => Promise<AcpWeirSession>;
  /**
   * Why the process's own model cannot run until the user sets its key (a provider set up in
   * part), in one line; `undefined` when the model is ready. While set, `initialize` offers one
   * authentication method that says what to set and `authenticate` answers "authentication
   * required" with the line: weir reads keys from its environment, which only a restart with the
   * key set changes. Sessions still open through `open`, which may find a model of its own (a
   * folder's config) or reject with an {@link AcpAuthRequiredError}.
   */
  readonly authRequired?: string;
  /** Status lines (the `[model]` line, a config not used): standard error, never standard output. */
  readonly say?: (line: string) => void;
}

/**
 * What a host's `open` rejects with when the session has no model it can run (its key is not set):
 * the client is answered "authentication required" (`-32000`) with the message, not an internal error.
 */
export class AcpAuthRequiredError extends Error {
  override readonly name = 'AcpAuthRequiredError';
}
