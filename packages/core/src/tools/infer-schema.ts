import type { StandardSchemaV1 } from '@standard-schema/spec';

/**
 * The TypeScript type a JSON Schema literal describes, for the common keywords: `type`
 * (one or several), `properties` with `required`, `items`, `enum`, `const`, `anyOf` and `oneOf`.
 * Anything it cannot read becomes `unknown`, never a wrong type.
 */
export type InferJsonSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? InferJsonSchema<A>
      : S extends { readonly oneOf: readonly (infer O)[] }
        ? InferJsonSchema<O>
        : S extends { readonly type: readonly (infer T)[] }
          ? T extends unknown
            ? InferTyped<T, S>
            : never
          : S extends { readonly type: infer T }
            ? InferTyped<T, S>
            : unknown;

type InferTyped<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? InferJsonSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? InferObject<S>
            : unknown;

type InferObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: InferJsonSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: InferJsonSchema<P[K]>;
      }
    >
  : Record<string, unknown>;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The arguments type a tool's `parameters` describe: a Standard Schema's output, or the JSON Schema's type. */
export type InferParameters<P> = P extends StandardSchemaV1<unknown, infer Output> ? Output : InferJsonSchema<P>;
