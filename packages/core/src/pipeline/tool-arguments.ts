import type { ToolArguments, ToolCall } from '../tools/call-context.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { failureResult, type ToolFailure } from '../tools/tool-result.js';

export type ParsedArguments = { readonly ok: true; readonly value: ToolArguments } | { readonly ok: false; readonly problem: string };

/**
 * Reads arguments as the model sent them: a JSON string or an object. An empty string means no
 * arguments (several providers send `""` for a tool without parameters). Anything but an object
 * is refused with a reason the model can act on.
 */
export function parseArguments(raw: ToolCall['arguments'] | undefined): ParsedArguments {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, problem: `the arguments are not valid JSON (${(error as Error).message}). Send one JSON object.` };
    }
  } else if (raw === undefined) {
    return { ok: true, value: {} };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the arguments must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.` };
  }
  return { ok: true, value: value as ToolArguments };
}

/** `INVALID_ARGUMENTS` listing every failing path; `source` names who produced the arguments. */
export function invalidArguments(context: PipelineContext, issues: readonly string[], source?: string): ToolFailure {
  const origin = source === undefined ? '' : ` (rewritten by "${source}")`;
  return failureResult(
    metaOf(context),
    'INVALID_ARGUMENTS',
    `Invalid arguments for ${context.toolName}${origin}:\n- ${issues.join('\n- ')}\nFix these and call ${context.toolName} again.`,
  );
}
