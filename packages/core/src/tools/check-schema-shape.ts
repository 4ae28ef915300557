const TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords whose value is one schema. */
const ONE_SCHEMA = ['additionalProperties', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'] as const;
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const MAX_DEPTH = 64;

/**
 * The cheap check registration makes of a JSON Schema, in microseconds, instead of compiling it
 * (milliseconds): every subschema is an object or a boolean, `type` names JSON types, `required`
 * lists strings, `enum` is a list and `pattern` a regular expression. What it cannot see (a `$ref`
 * that resolves nowhere, a keyword Ajv refuses in context) is found when the schema is compiled,
 * on the tool's first call. Returns the first problem, with its JSON pointer, or `undefined`.
 */
export function checkSchemaShape(schema: unknown): string | undefined {
  return checkNode(schema, '', 0);
}

function checkNode(node: unknown, at: string, depth: number): string | undefined {
  if (typeof node === 'boolean') return undefined;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return `${where(at)}: a schema must be an object or a boolean, got ${describe(node)}`;
  if (depth > MAX_DEPTH) return `${where(at)}: nested deeper than ${MAX_DEPTH} levels`;
  const schema = node as Record<string, unknown>;
  const problem = checkKeywords(schema, at);
  if (problem !== undefined) return problem;
  for (const keyword of ONE_SCHEMA) {
    if (schema[keyword] === undefined) continue;
    const found = checkNode(schema[keyword], `${at}/${keyword}`, depth + 1);
    if (found !== undefined) return found;
  }
  if (schema.items !== undefined) {
    // draft-07 allows a list of schemas (a tuple); 2020-12 has prefixItems for that.
    const found = Array.isArray(schema.items) ? checkList(schema.items, `${at}/items`, depth, false) : checkNode(schema.items, `${at}/items`, depth + 1);
    if (found !== undefined) return found;
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (map === undefined) continue;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return `${at}/${keyword}: must be an object of schemas, got ${describe(map)}`;
    for (const [name, child] of Object.entries(map)) {
      const found = checkNode(child, `${at}/${keyword}/${name}`, depth + 1);
      if (found !== undefined) return found;
    }
  }
  for (const keyword of SCHEMA_LISTS) {
    if (schema[keyword] === undefined) continue;
    const found = checkList(schema[keyword], `${at}/${keyword}`, depth, true);
    if (found !== undefined) return found;
  }
  return undefined;
}

function checkKeywords(schema: Record<string, unknown>, at: string): string | undefined {
  const { type, required, pattern } = schema;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    const bad = types.find((name) => typeof name !== 'string' || !TYPES.has(name));
    if (bad !== undefined || types.length === 0) return `${at}/type: ${JSON.stringify(bad ?? type)} is not a JSON Schema type (string, number, integer, boolean, object, array, null)`;
  }
  if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === 'string'))) {
    return `${at}/required: must be a list of property names, got ${JSON.stringify(required)}`;
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${at}/enum: must be a list of values, got ${JSON.stringify(schema.enum)}`;
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') return `${at}/pattern: must be a regular expression in a string, got ${describe(pattern)}`;
    try {
      // The flag Ajv compiles patterns with.
      new RegExp(pattern, 'u');
    } catch (error) {
      return `${at}/pattern: ${(error as Error).message}`;
    }
  }
  return undefined;
}

function checkList(list: unknown, at: string, depth: number, nonEmpty: boolean): string | undefined {
  if (!Array.isArray(list) || (nonEmpty && list.length === 0)) return `${at}: must be a ${nonEmpty ? 'non-empty ' : ''}list of schemas, got ${JSON.stringify(list)}`;
  for (let index = 0; index < list.length; index += 1) {
    const found = checkNode(list[index], `${at}/${index}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const where = (at: string) => (at === '' ? '(root)' : at);

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
