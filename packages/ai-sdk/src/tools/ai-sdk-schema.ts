import type { JsonSchema } from '@weir/core';

// The AI SDK recognises a schema built by its `jsonSchema()` by this registered symbol (the same in
// AI SDK 5, 6 and 7, `Symbol.for`, so any copy of the SDK reads it). Making the object here keeps
// `ai` out of this package's dependencies: the caller's own copy of the SDK reads it.
const SCHEMA_MARK = Symbol.for('vercel.ai.schema');

/** The shape of an AI SDK `Schema`: what `generateText` sends the provider as the tool's input schema. */
export interface AiSdkSchema {
  readonly jsonSchema: JsonSchema;
  /** Absent on purpose: weir's pipeline validates the arguments, and a mismatch becomes its own error result. */
  readonly validate: undefined;
}

/**
 * A weir tool's compiled JSON Schema as an AI SDK input schema. It carries no validator: the SDK
 * passes the parsed input on unchanged and weir's stage 1 validates it, so the model reads weir's
 * `INVALID_ARGUMENTS` message (naming every issue) instead of the SDK's.
 */
export function aiSdkSchema(jsonSchema: JsonSchema): AiSdkSchema {
  return Object.freeze({ [SCHEMA_MARK]: true, _type: undefined, jsonSchema, validate: undefined });
}
