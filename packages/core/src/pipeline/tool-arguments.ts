import type { ToolArguments, ToolCall } from '../tools/call-context.js';
import type { PipelineContext } from './pipeline-context.js';
import { metaOf } from './pipeline-context.js';
import { failureResult, type ToolFailure } from '../tools/tool-result.js';

export type ParsedArguments = { readonly ok: true; readonly value: ToolArguments } | { readonly ok: false; readonly problem: string };

/** How deep arguments may nest (objects and arrays). Deeper is `INVALID_ARGUMENTS`, never a stack overflow. */
export const MAX_ARGUMENT_DEPTH = 64;

/** Most problems one `INVALID_ARGUMENTS` message lists; the rest are counted. */
const MAX_LISTED_ISSUES = 20;

/**
 * Reads arguments as the model sent them: a JSON string or an object. An empty string means no
 * arguments (several providers send `""` for a tool without parameters). Anything but an object,
 * or an object nested deeper than `MAX_ARGUMENT_DEPTH`, is refused with a reason the model can act
 * on. The value returned is the pipeline's own: a JSON string parsed fresh already is, an object is
 * copied (as JSON would copy it), so nothing the caller holds (a model's message in a history) is
 * ever reachable from a tap or a tool body.
 */
export function parseArguments(raw: ToolCall['arguments'] | undefined): ParsedArguments {
  let value: unknown;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, problem: `the arguments are not valid JSON (${(error as Error).message}). Send one JSON object.` };
    }
  } else if (raw === undefined) {
    return { ok: true, value: {} };
  } else {
    value = raw;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the arguments must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.` };
  }
  if (typeof raw === 'string') {
    return withinDepth(value) ? { ok: true, value: value as ToolArguments } : tooDeep();
  }
  const copied = copyJsonData(value);
  return copied === TOO_DEEP ? tooDeep() : { ok: true, value: copied as ToolArguments };
}

const TOO_DEEP = Symbol('too deep');

function tooDeep(): ParsedArguments {
  return { ok: false, problem: `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels. Send flatter arguments.` };
}

/** True when no object or array in `root` sits deeper than `MAX_ARGUMENT_DEPTH`. Iterative: any depth is safe to check. */
function withinDepth(root: object): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_ARGUMENT_DEPTH) return false;
    for (const key in node as Record<string, unknown>) {
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return true;
}

/**
 * Copies the JSON data of `value` (what `JSON.parse(JSON.stringify(value))` would keep, without
 * the text in between): plain objects and arrays, strings, finite numbers, booleans and null.
 * `toJSON` is honoured; functions, symbols and `undefined` properties are left out. Returns
 * `TOO_DEEP` past `MAX_ARGUMENT_DEPTH`, and throws `TypeError` on a cycle, like JSON.
 */
function copyJsonData(value: unknown, depth = 1, ancestors: object[] = []): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_ARGUMENT_DEPTH) return TOO_DEEP;
  if (ancestors.includes(value)) throw new TypeError('the arguments contain a cycle');
  ancestors.push(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const item = value[index];
      const copied = typeof item === 'function' || typeof item === 'symbol' || item === undefined ? null : copyJsonData(item, depth + 1, ancestors);
      if (copied === TOO_DEEP) return TOO_DEEP;
      items[index] = copied;
    }
    out = items;
  } else {
    const fields: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (typeof item === 'function' || typeof item === 'symbol' || item === undefined) continue;
      const copied = copyJsonData(item, depth + 1, ancestors);
      if (copied === TOO_DEEP) return TOO_DEEP;
      fields[key] = copied;
    }
    out = fields;
  }
  ancestors.pop();
  return out;
}

/** `INVALID_ARGUMENTS` listing every failing path; `source` names who produced the arguments. */
export function invalidArguments(context: PipelineContext, issues: readonly string[], source?: string): ToolFailure {
  const origin = source === undefined ? '' : ` (rewritten by "${source}")`;
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => (issue.length > 200 ? `${issue.slice(0, 200)}...` : issue));
  const more = issues.length > MAX_LISTED_ISSUES ? `\n- ... and ${issues.length - MAX_LISTED_ISSUES} more problems` : '';
  return failureResult(
    metaOf(context),
    'INVALID_ARGUMENTS',
    `Invalid arguments for ${context.toolName}${origin}:\n- ${listed.join('\n- ')}${more}\nFix these and call ${context.toolName} again.`,
  );
}

/** The tool's parameters schema did not compile: no arguments can pass, so the model is told to stop trying this tool. */
export function brokenSchema(context: PipelineContext, schemaError: string): ToolFailure {
  return failureResult(
    metaOf(context),
    'INVALID_SCHEMA',
    `${context.toolName} cannot be called: ${schemaError}. This is a fault of the tool, not of your arguments; do not call ${context.toolName} again, use another tool or tell the user.`,
  );
}
