import { isRecord } from './is-record.js';

/** How tool parameters are sent. */
export type SchemaForm = 'json-schema' | 'openapi';

/** The keywords of the Gemini API's own `Schema` (an OpenAPI 3.0 subset). */
const KEPT = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'properties', 'required', 'anyOf', 'propertyOrdering', 'default',
  'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'example',
]);
/** Keywords that only describe a schema document, dropped without a word. */
const SILENT = new Set(['$schema', '$id', '$comment']);

/** A converted schema and the keywords that had to go. */
export interface ConvertedSchema {
  readonly schema: Record<string, unknown>;
  /** Dropped keywords with where they were, e.g. `additionalProperties at /properties/x`. */
  readonly dropped: readonly string[];
}

/**
 * Converts a JSON Schema to the API's `Schema` (for `parameters`, the field older models and Vertex
 * take): `const` becomes a one-value `enum`, `oneOf` becomes `anyOf`, a type list with `"null"`
 * becomes the type plus `nullable: true`, numbers in `enum` become strings (the API takes string
 * enums only); every other keyword it rejects (`additionalProperties`, `$ref`, `$defs`, `allOf`,
 * `not`, `if`...) is removed, and named in `dropped`. Never throws.
 */
export function toGeminiSchema(schema: unknown): ConvertedSchema {
  const dropped: string[] = [];
  const converted = convert(schema, '', dropped);
  return { schema: isRecord(converted) ? converted : { type: 'object' }, dropped };
}

function convert(node: unknown, where: string, dropped: string[]): unknown {
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (SILENT.has(key)) continue;
    switch (key) {
      case 'const':
        out['enum'] = [String(value)];
        break;
      case 'oneOf':
      case 'anyOf':
        out['anyOf'] = Array.isArray(value) ? value.map((entry, index) => convert(entry, `${where}/${key}/${index}`, dropped)) : value;
        break;
      case 'type':
        if (Array.isArray(value)) {
          const types = value.filter((type) => type !== 'null');
          if (types.length < value.length) out['nullable'] = true;
          if (types.length === 1) out['type'] = types[0];
          else if (types.length > 1) out['anyOf'] = types.map((type) => ({ type }));
        } else {
          out['type'] = value;
        }
        break;
      case 'enum':
        out['enum'] = Array.isArray(value) ? value.filter((entry) => entry !== null).map(String) : value;
        break;
      case 'properties':
        out['properties'] = isRecord(value) ? Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, convert(entry, `${where}/properties/${name}`, dropped)])) : value;
        break;
      case 'items':
        out['items'] = convert(value, `${where}/items`, dropped);
        break;
      default:
        if (KEPT.has(key)) out[key] = value;
        else dropped.push(`${key} at ${where === '' ? '/' : where}`);
    }
  }
  return out;
}
