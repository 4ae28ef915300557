/**
 * The form of an MCP `elicitation/create` request (form mode): a flat object of primitive fields,
 * as the protocol restricts `requestedSchema`. Weir fills in the schema's defaults and checks an
 * answer against the schema itself before it goes back: the SDK checks the answer's shape, not
 * that it fits what the server asked.
 */

/** One field of a requested form, as read from the schema (anything unknown is kept out). */
export interface FormField {
  readonly name: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  readonly required: boolean;
  readonly title?: string;
  readonly description?: string;
  /** The allowed values of a single choice (a string field) or of a multiple choice (an array field). */
  readonly choices?: readonly string[];
  readonly default?: unknown;
}

type Schema = Record<string, unknown>;

/** The fields of `requestedSchema`, or a one-line reason it is not a form weir can show. */
export function formFields(requestedSchema: unknown): { readonly fields: readonly FormField[] } | { readonly error: string } {
  if (!isRecord(requestedSchema) || requestedSchema.type !== 'object' || !isRecord(requestedSchema.properties)) {
    return { error: 'the requested schema is not an object schema with properties' };
  }
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((name): name is string => typeof name === 'string') : [];
  const fields: FormField[] = [];
  for (const [name, schema] of Object.entries(requestedSchema.properties)) {
    if (!isRecord(schema)) return { error: `field "${name}" has no schema` };
    const type = schema.type;
    if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean' && type !== 'array') {
      return { error: `field "${name}" is of type ${JSON.stringify(type)}; a form holds strings, numbers, booleans and lists of choices` };
    }
    const choices = choicesOf(type === 'array' ? schema.items : schema);
    fields.push({
      name,
      type,
      required: required.includes(name),
      ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      ...(choices === undefined ? {} : { choices }),
      ...('default' in schema ? { default: schema.default } : {}),
    });
  }
  return { fields };
}

/** `content` with each field the answer left out set to its schema's default, when it has one. A new object. */
export function withDefaults(requestedSchema: unknown, content: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...content };
  const properties = isRecord(requestedSchema) && isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  for (const [name, schema] of Object.entries(properties)) {
    if (filled[name] === undefined && isRecord(schema) && 'default' in schema) filled[name] = structuredClone(schema.default);
  }
  return filled;
}

/** The first way `content` does not fit the form, in one line, or `undefined` when it fits. */
export function checkAnswer(requestedSchema: unknown, content: unknown): string | undefined {
  const read = formFields(requestedSchema);
  if ('error' in read) return read.error;
  if (!isRecord(content)) return 'the answer is not an object';
  const known = new Set(read.fields.map((field) => field.name));
  const extra = Object.keys(content).find((name) => !known.has(name));
  if (extra !== undefined) return `"${extra}" is not a field of the form`;
  const properties = (requestedSchema as Schema).properties as Record<string, Schema>;
  for (const field of read.fields) {
    const value = content[field.name];
    if (value === undefined) {
      if (field.required) return `the required field "${field.name}" has no value`;
      continue;
    }
    const problem = checkValue(field, properties[field.name]!, value);
    if (problem !== undefined) return `field "${field.name}": ${problem}`;
  }
  return undefined;
}

function checkValue(field: FormField, schema: Schema, value: unknown): string | undefined {
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'expected a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'expected a whole number';
      if (typeof schema.minimum === 'number' && value < schema.minimum) return `must be at least ${schema.minimum}`;
      if (typeof schema.maximum === 'number' && value > schema.maximum) return `must be at most ${schema.maximum}`;
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return 'expected text';
      if (field.choices !== undefined && !field.choices.includes(value)) return `must be one of ${field.choices.map((choice) => JSON.stringify(choice)).join(', ')}`;
      if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) return `must be at least ${schema.minLength} characters`;
      if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength) return `must be at most ${schema.maxLength} characters`;
      return checkFormat(schema.format, value);
    }
    case 'array': {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return 'expected a list of choices';
      if (field.choices !== undefined) {
        const bad = value.find((item) => !field.choices!.includes(item as string));
        if (bad !== undefined) return `${JSON.stringify(bad)} is not one of ${field.choices.map((choice) => JSON.stringify(choice)).join(', ')}`;
      }
      if (typeof schema.minItems === 'number' && value.length < schema.minItems) return `choose at least ${schema.minItems}`;
      if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return `choose at most ${schema.maxItems}`;
      return undefined;
    }
  }
}

function checkFormat(format: unknown, value: string): string | undefined {
  if (format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return 'expected an email address';
  if (format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'expected a date (YYYY-MM-DD)';
  if (format === 'date-time' && Number.isNaN(Date.parse(value))) return 'expected a date and time';
  if (format === 'uri') {
    try {
      new URL(value);
    } catch {
      return 'expected a URI';
    }
  }
  return undefined;
}

/** The values of `enum`, or the `const`s of `oneOf` / `anyOf` (titled choices). */
function choicesOf(schema: unknown): readonly string[] | undefined {
  if (!isRecord(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum.filter((value): value is string => typeof value === 'string');
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (options === undefined) return undefined;
  return options.flatMap((option) => (isRecord(option) && typeof option.const === 'string' ? [option.const] : []));
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
