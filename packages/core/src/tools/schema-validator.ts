import { createRequire } from 'node:module';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { HarnessError } from '../harness-error.js';

/** A JSON Schema document (draft-07 or 2020-12). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A Standard Schema (zod >= 4.2, valibot, arktype...) that can also describe itself as JSON Schema. */
export type StandardJsonSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** `{ ok: true, value }` with the validated (and, for Standard Schemas, parsed) value, or the issues. */
export type Validation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly string[] };

/** A compiled validator. Synchronous for JSON Schema; a Standard Schema may answer with a promise. */
export type Validator = (value: unknown) => Validation | Promise<Validation>;

/** What registration compiles once from `parameters` or `output.schema`. */
export interface CompiledSchema {
  /** The JSON Schema shown to the model. */
  readonly jsonSchema: JsonSchema;
  readonly validate: Validator;
}

const require = createRequire(import.meta.url);

/**
 * A shared Ajv: 2020-12 by default, draft-07 accepted through its meta-schema. `allErrors` so a
 * model learns every mistake in one round; `strict: false` so vendor keywords in published schemas
 * do not break registration (an invalid schema still throws).
 *
 * Ajv and ajv-formats are required here, on the first compilation, not when core is imported: they
 * are most of core's import time, and a program that registers no JSON Schema never needs them.
 * They are CommonJS, so `require` keeps registration synchronous (INVALID_SCHEMA still throws there).
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
 * Compiles a JSON Schema or a Standard Schema once. Throws `HarnessError('INVALID_SCHEMA')`
 * naming `owner` when the schema is not valid, or (with `requireObject`) does not describe an object.
 */
export function compileSchema(schema: unknown, owner: string, options: { requireObject: boolean }): CompiledSchema {
  if (isStandardJsonSchema(schema)) return compileStandardSchema(schema, owner, options);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new HarnessError('INVALID_SCHEMA', `${owner}: expected a JSON Schema object or a Standard Schema, got ${describe(schema)}.`);
  }
  const jsonSchema = schema as JsonSchema;
  if (options.requireObject) assertObjectSchema(jsonSchema, owner);
  let validateFn: ValidateFunction;
  try {
    validateFn = compileWithAjv(jsonSchema);
  } catch (error) {
    throw new HarnessError('INVALID_SCHEMA', `${owner}: invalid JSON Schema: ${(error as Error).message}`, { cause: error });
  }
  const validate: Validator = (value) =>
    validateFn(value) ? { ok: true, value } : { ok: false, issues: formatAjvErrors(validateFn.errors ?? []) };
  return { jsonSchema, validate };
}

function compileStandardSchema(schema: StandardJsonSchema, owner: string, options: { requireObject: boolean }): CompiledSchema {
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  } catch (error) {
    throw new HarnessError('INVALID_SCHEMA', `${owner}: the Standard Schema cannot give a JSON Schema: ${(error as Error).message}`, { cause: error });
  }
  if (options.requireObject) assertObjectSchema(jsonSchema, owner);
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
