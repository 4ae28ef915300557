import type { ToolArguments } from '../tools/call-context.js';
import type { ToolExecution } from '../tools/define-tool.js';
import type { ToolFailure } from '../tools/tool-result.js';

/**
 * The value of the prepareExecution waterfall. Taps only ever see `ready`: once a call is settled
 * (blocked, substituted, failed) the remaining taps are skipped.
 */
export type Preparation =
  | { readonly status: 'ready'; readonly arguments: ToolArguments }
  | { readonly status: 'substitute'; readonly value: unknown; readonly content: string | undefined; readonly by: string }
  | { readonly status: 'settled'; readonly result: ToolFailure };

/** What a prepareExecution tap may return besides `undefined` (pass the call on unchanged). */
export type PrepareAction =
  | { readonly action: 'rewrite'; readonly arguments: Record<string, unknown> }
  | { readonly action: 'block'; readonly reason: string }
  | { readonly action: 'substitute'; readonly value: unknown; readonly content?: string };

/** What a createSuccessResult or postExecute tap may return besides `undefined` (accept). */
export type ResultAction =
  | { readonly action: 'block'; readonly reason: string }
  | { readonly action: 'replace'; readonly value: unknown; readonly content?: string }
  | { readonly action: 'addContext'; readonly text: string };

/** The execute stage's value: a function that runs the call. Taps wrap it and return the wrapper. */
export type Dispatch = (args: ToolArguments, exec: ToolExecution) => Promise<unknown>;
