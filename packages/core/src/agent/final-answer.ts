import { deepFreeze } from '../deep-freeze.js';
import { parseArguments } from '../pipeline/tool-arguments.js';
import { compileSchema, type CompiledSchema, type JsonSchema, type StandardJsonSchema } from '../tools/schema-validator.js';
import type { ToolSchema } from '../tools/tool-registry.js';
import { failureResult, successResult, type ToolResult } from '../tools/tool-result.js';
import type { ModelToolCall } from './model.js';

/** The name of the tool a structured answer is given through. */
export const FINAL_ANSWER_TOOL = 'final_answer';

/** Default bound on invalid answers before a turn stops with `output_invalid`. */
export const DEFAULT_MAX_OUTPUT_ATTEMPTS = 3;

/** What the model reads once its answer is accepted. */
const ACCEPTED = 'Final answer accepted.';
const MAX_LISTED_ISSUES = 20;

/** The outcome of one answer: the value, or a result telling the model what to fix. */
export type AnswerCheck = { readonly ok: true; readonly value: unknown; readonly result: ToolResult } | { readonly ok: false; readonly result: ToolResult };

/**
 * A turn's structured answer: the `final_answer` tool offered beside the registry's tools at each
 * step, its arguments read and validated as stage 1 reads any call's (JSON string or object, the
 * same depth bound, the same schema validator and failing-path messages). A schema that is not an
 * object is wrapped as `{ value: <schema> }`, since tool arguments are objects; the answer is then
 * `value`. Counts invalid answers against a bound.
 */
export class FinalAnswer {
  readonly tool: ToolSchema;
  readonly maxAttempts: number;
  #invalid = 0;
  readonly #compiled: CompiledSchema;
  readonly #wrapped: boolean;

  constructor(schema: JsonSchema | StandardJsonSchema, maxAttempts: number) {
    this.#compiled = compileSchema(schema, 'turn output', { requireObject: false });
    const jsonSchema = this.#compiled.jsonSchema;
    this.#wrapped = jsonSchema.type !== 'object';
    const parameters = this.#wrapped ? { type: 'object', properties: { value: jsonSchema }, required: ['value'], additionalProperties: false } : jsonSchema;
    this.tool = deepFreeze({
      name: FINAL_ANSWER_TOOL,
      description: 'Give your final answer by calling this tool once the task is done; its arguments are the answer. Do not answer in plain text.',
      parameters,
    }) as ToolSchema;
    this.maxAttempts = maxAttempts;
  }

  /** True once the model failed more often than the bound allows. */
  get exhausted(): boolean {
    return this.#invalid >= this.maxAttempts;
  }

  /** Reads one `final_answer` call. */
  async check(call: ModelToolCall): Promise<AnswerCheck> {
    const meta = { callId: call.id, toolName: call.name, durationMs: 0, attempts: 1 };
    const parsed = parseArguments(call.arguments);
    if (!parsed.ok) return this.#refuse(meta, [`(root): ${parsed.problem}`]);
    const candidate = this.#wrapped ? (parsed.value as { value?: unknown }).value : parsed.value;
    if (this.#wrapped && !('value' in parsed.value)) return this.#refuse(meta, ['/value: is required']);
    const validation = await this.#compiled.validate(candidate);
    if (!validation.ok) return this.#refuse(meta, this.#wrapped ? validation.issues.map((issue) => `/value${issue.startsWith('(root)') ? issue.slice(6) : issue}`) : validation.issues);
    const value = deepFreeze(validation.value);
    return { ok: true, value, result: successResult(meta, value, ACCEPTED) };
  }

  /**
   * Reads a plain-text answer: accepted when it is JSON that validates (some models answer so
   * despite the tool); otherwise counted as an invalid answer, with the words that remind the model.
   */
  async checkText(text: string): Promise<{ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reminder: string }> {
    const json = jsonOf(text);
    if (json !== NOT_JSON) {
      const validation = await this.#compiled.validate(json);
      if (validation.ok) return { ok: true, value: deepFreeze(validation.value) };
    }
    this.#invalid += 1;
    return { ok: false, reminder: `Your answer must be given by calling the ${FINAL_ANSWER_TOOL} tool with arguments that match its schema; a plain-text answer is not read. Call ${FINAL_ANSWER_TOOL} now.` };
  }

  #refuse(meta: { callId: string; toolName: string; durationMs: number; attempts: number }, issues: readonly string[]): AnswerCheck {
    this.#invalid += 1;
    const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => (issue.length > 200 ? `${issue.slice(0, 200)}...` : issue));
    const more = issues.length > MAX_LISTED_ISSUES ? `\n- ... and ${issues.length - MAX_LISTED_ISSUES} more problems` : '';
    const left = this.maxAttempts - this.#invalid;
    const bound = left > 0 ? ` (${left} more attempt${left === 1 ? '' : 's'})` : '';
    return {
      ok: false,
      result: failureResult(meta, 'INVALID_ARGUMENTS', `Invalid arguments for ${FINAL_ANSWER_TOOL}:\n- ${listed.join('\n- ')}${more}\nFix these and call ${FINAL_ANSWER_TOOL} again${bound}.`),
    };
  }
}

const NOT_JSON = Symbol('not json');

/** The JSON value of a text answer, fenced (```json) or bare; `NOT_JSON` otherwise. */
function jsonOf(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  try {
    return JSON.parse(fenced === null ? trimmed : fenced[1]!);
  } catch {
    return NOT_JSON;
  }
}
