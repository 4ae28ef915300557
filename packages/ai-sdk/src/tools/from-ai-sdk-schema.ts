import type { ToolParameters } from '@weir/core';

const SCHEMA_MARK = Symbol.for('vercel.ai.schema');
const EMPTY_OBJECT: ToolParameters = Object.freeze({ type: 'object', properties: {}, additionalProperties: false });

/** An AI SDK validator: `{ success: true, value }` or `{ success: false, error }`. */
export type AiSdkValidate = (value: unknown) => { success: true; value: unknown } | { success: false; error: Error } | PromiseLike<{ success: true; value: unknown } | { success: false; error: Error }>;

/** What weir registers for an AI SDK input schema: the parameters, and the SDK schema's own validator when it has one. */
export interface WeirInput {
  readonly parameters: ToolParameters;
  /** A `jsonSchema(..., { validate })` validator, run on weir's validated arguments before the body (it may transform them). */
  readonly validate: AiSdkValidate | undefined;
}

/**
 * Reads an AI SDK `inputSchema` (a `FlexibleSchema`) as weir parameters: a Standard Schema with
 * JSON Schema (zod 4.2+, and other vendors that convert) is handed to weir as it is; a
 * `jsonSchema()` schema gives its JSON Schema and keeps its validator; a lazy schema is made first;
 * none is the empty object. Throws a one-line `TypeError` for what weir cannot register: a
 * Standard Schema without JSON Schema (zod 3), or a JSON Schema that is only a promise.
 */
export function fromAiSdkSchema(inputSchema: unknown, owner: string): WeirInput {
  if (inputSchema === undefined || inputSchema === null) return { parameters: EMPTY_OBJECT, validate: undefined };
  const schema = typeof inputSchema === 'function' ? (inputSchema as () => unknown)() : inputSchema;
  if (typeof schema !== 'object' || schema === null) throw new TypeError(`${owner}: inputSchema must be a zod schema, a Standard Schema or jsonSchema(...), got ${typeof schema}.`);
  if ((schema as Record<symbol, unknown>)[SCHEMA_MARK] === true) {
    const { jsonSchema, validate } = schema as { jsonSchema: unknown; validate?: AiSdkValidate };
    if (typeof (jsonSchema as PromiseLike<unknown> | null)?.then === 'function') {
      throw new TypeError(`${owner}: its JSON Schema is a promise; weir registers tools synchronously, so resolve it first and pass jsonSchema(resolved).`);
    }
    return { parameters: jsonSchema as ToolParameters, validate };
  }
  const standard = (schema as { '~standard'?: { jsonSchema?: unknown; vendor?: unknown } })['~standard'];
  if (standard !== undefined) {
    if (standard.jsonSchema === undefined) {
      throw new TypeError(`${owner}: its ${String(standard.vendor)} schema cannot give JSON Schema (zod 3 cannot; use zod 4.2 or later, or jsonSchema(...)).`);
    }
    return { parameters: schema as ToolParameters, validate: undefined };
  }
  throw new TypeError(`${owner}: inputSchema must be a zod schema, a Standard Schema or jsonSchema(...).`);
}
