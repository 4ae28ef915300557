import { createRequire } from 'node:module';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { HarnessError } from '../harness-error.js';
import { snapshotValue } from '../pipeline/snapshot-value.js';
import { checkSchemaShape } from './check-schema-shape.js';

/** A JSON Schema document (draft-07 or 2020-12). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A Standard Schema (zod >= 4.2, valibot, arktype...) that can also describe itself as JSON Schema. */
export type StandardJsonSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/**
 * `{ ok: true, value }` with the validated (and, for Standard Schemas, parsed) value, or the issues.
 * `schemaError` is set when the schema itself did not compile (found at the tool's first call):
 * the fault is the tool's, not the value's, and `issues` holds that one message.
 */
export type Validation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly string[]; readonly schemaError?: string };

/** A compiled validator. Synchronous for JSON Schema; a Standard Schema may answer with a promise. */
export type Validator = (value: unknown) => Validation | Promise<Validation>;

/**
 * What registration makes of `parameters` or `output.schema`: the schema, checked for its shape
 * and snapshotted, and a validator that compiles it on its first use (then keeps it).
 */
export interface CompiledSchema {
  /** The JSON Schema shown to the model: a deep-frozen snapshot, what `validate` compiles. */
  readonly jsonSchema: JsonSchema;
  readonly validate: Validator;
}

const require = createRequire(import.meta.url);

/**
 * A shared Ajv: 2020-12 by default, draft-07 accepted through its meta-schema. `allErrors` so a
 * model learns every mistake in one round; `strict: false` so vendor keywords in published schemas
 * do not break a tool.
 *
 * Ajv and ajv-formats are required here, on the first compilation, not when core is imported: they
 * are most of core's import time, and a program that calls no JSON Schema tool never needs them.
 * They are CommonJS, so `require` keeps the first validation synchronous.
 */
function createAjv(): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats' CommonJS export may arrive wrapped in `default`.
  const formats = require('ajv-formats') as { default?: (ajv: Ajv2020) => Ajv2020 } & ((ajv: Ajv2020) => Ajv2020);
  const addFormats = formats.default ?? formats;
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-07.json') as JsonSchema);
  addFormats(ajv);
  return ajv;
}

/**
 * Ajv keeps every schema it compiled, and its generated code, for the life of the instance (about
 * 3 KB each), even after `removeSchema`. So validators are cached by the schema's text: a plugin
 * reloaded 10,000 times with equal schemas compiles them once. And after this many compilations
 * a fresh Ajv takes over; the old one is freed once no registered tool uses its validators.
 */
const COMPILATIONS_PER_AJV = 1_000;

interface AjvGeneration {
  readonly ajv: Ajv2020;
  readonly bySource: Map<string, ValidateFunction>;
  compilations: number;
}

let generation: AjvGeneration | undefined;

function compileWithAjv(schema: JsonSchema): ValidateFunction {
  const source = JSON.stringify(schema);
  const cached = generation?.bySource.get(source);
  if (cached) return cached;
  if (generation === undefined || generation.compilations >= COMPILATIONS_PER_AJV) generation = { ajv: createAjv(), bySource: new Map(), compilations: 0 };
  const { ajv } = generation;
  // A schema with an $id replaces an earlier one of the same $id (a tool changed between reloads).
  if (typeof schema.$id === 'string' && ajv.getSchema(schema.$id)) ajv.removeSchema(schema.$id);
  const validate = ajv.compile(schema);
  generation.compilations += 1;
  generation.bySource.set(source, validate);
  return validate;
}

/** True when `schema` is a Standard Schema that can describe itself as JSON Schema. */
export function isStandardJsonSchema(schema: unknown): schema is StandardJsonSchema {
  if (typeof schema !== 'object' || schema === null || !('~standard' in schema)) return false;
  const props = (schema as StandardJsonSchema)['~standard'];
  return typeof props?.validate === 'function' && typeof props.jsonSchema?.input === 'function';
}

/**
 * Checks a JSON Schema's shape (see `checkSchemaShape`) or a Standard Schema's JSON Schema, and
 * returns its validator. Throws `HarnessError('INVALID_SCHEMA')` naming `owner` when the schema is
 * not a schema, its shape is wrong, or (with `requireObject`) it does not describe an object.
 *
 * A JSON Schema is compiled with Ajv on the first `validate`, not here: compiling costs 5 to 8 ms
 * a schema, and a server that lists 3,000 tools would hold the event loop for seconds while most
 * of its tools are never called. A schema Ajv refuses then (a `$ref` that resolves nowhere) makes
 * every validation fail with `schemaError`, found once and kept; it never throws.
 */
export function compileSchema(schema: unknown, owner: string, options: { requireObject: boolean }): CompiledSchema {
  if (isStandardJsonSchema(schema)) return compileStandardSchema(schema, owner, options);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new HarnessError('INVALID_SCHEMA', `${owner}: expected a JSON Schema object or a Standard Schema, got ${describe(schema)}.`);
  }
  if (options.requireObject) assertObjectSchema(schema as JsonSchema, owner);
  const problem = checkSchemaShape(schema);
  if (problem !== undefined) throw new HarnessError('INVALID_SCHEMA', `${owner}: invalid JSON Schema: ${problem}.`);
  // Compiled later, so compiled from a snapshot: what the model is shown is what is enforced.
  const jsonSchema = snapshotValue(schema as JsonSchema);
  return { jsonSchema, validate: lazyAjvValidator(jsonSchema, owner) };
}

/** A validator that compiles `schema` on its first call and keeps the function, or the compile error. */
function lazyAjvValidator(schema: JsonSchema, owner: string): Validator {
  let validateFn: ValidateFunction | undefined;
  let refused: Validation | undefined;
  return (value) => {
    if (validateFn === undefined) {
      if (refused !== undefined) return refused;
      try {
        validateFn = compileWithAjv(schema);
      } catch (error) {
        const message = `${owner}: invalid JSON Schema: ${(error as Error).message}`;
        refused = Object.freeze({ ok: false, issues: Object.freeze([message]), schemaError: message });
        return refused;
      }
    }
    return validateFn(value) ? { ok: true, value } : { ok: false, issues: formatAjvErrors(validateFn.errors ?? []) };
  };
}

function compileStandardSchema(schema: StandardJsonSchema, owner: string, options: { requireObject: boolean }): CompiledSchema {
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  } catch (error) {
    throw new HarnessError('INVALID_SCHEMA', `${owner}: the Standard Schema cannot give a JSON Schema: ${(error as Error).message}`, { cause: error });
  }
  if (options.requireObject) assertObjectSchema(jsonSchema, owner);
  jsonSchema = snapshotValue(jsonSchema);
  const standardValidate = schema['~standard'].validate;
  const toValidation = (result: StandardSchemaV1.Result<unknown>): Validation =>
    result.issues ? { ok: false, issues: result.issues.map(formatStandardIssue) } : { ok: true, value: result.value };
  const validate: Validator = (value) => {
    const result = standardValidate(value);
    return result instanceof Promise ? result.then(toValidation) : toValidation(result);
  };
  return { jsonSchema, validate };
}

function assertObjectSchema(schema: JsonSchema, owner: string): void {
  if (schema.type !== 'object') {
    throw new HarnessError('INVALID_SCHEMA', `${owner}: parameters must be a schema of type "object" (the model sends named arguments), got type ${JSON.stringify(schema.type)}.`);
  }
}

/** One line per failing path, e.g. `/path: must be string`, so a model can correct every mistake at once. */
function formatAjvErrors(errors: readonly ErrorObject[]): string[] {
  return errors.map((error) => {
    const path = error.instancePath === '' ? '(root)' : error.instancePath;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') return `${joinPath(error.instancePath, String(params.missingProperty))}: is required`;
    if (error.keyword === 'additionalProperties') return `${joinPath(error.instancePath, String(params.additionalProperty))}: is not allowed (unknown property)`;
    if (error.keyword === 'enum') return `${path}: must be one of ${JSON.stringify(params.allowedValues)}`;
    return `${path}: ${error.message ?? 'is invalid'}`;
  });
}

function formatStandardIssue(issue: StandardSchemaV1.Issue): string {
  const segments = (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment));
  return `${segments.length === 0 ? '(root)' : `/${segments.join('/')}`}: ${issue.message}`;
}

function joinPath(parent: string, property: string): string {
  return `${parent}/${property}`;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
