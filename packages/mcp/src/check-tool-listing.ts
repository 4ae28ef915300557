import type { McpToolInfo } from './describe-tool.js';

/** One entry of a server's tool list, made usable, or why it cannot be. */
export type CheckedTool =
  | { readonly ok: true; readonly tool: McpToolInfo; /** What was adapted, one line each. */ readonly adapted: readonly string[] }
  | { readonly ok: false; /** The name to report (or a placeholder when it has none). */ readonly name: string; readonly why: string };

/**
 * Reads one entry of `tools/list` as sent, never trusting its shape: a tool without a name or with
 * arguments that are not an object is refused (with why, in one line); an input schema with no
 * `type` (`{}`, a tool without arguments) is taken as an object schema; an output schema that is
 * not an object schema is left out (the tool then has none). Never throws.
 */
export function checkTool(raw: unknown): CheckedTool {
  if (!isRecord(raw)) return { ok: false, name: '(an entry that is not an object)', why: `the entry is ${describe(raw)}, not a tool` };
  if (typeof raw.name !== 'string' || raw.name === '') return { ok: false, name: '(a tool without a name)', why: `its name is ${describe(raw.name)}` };
  const name = raw.name;
  const adapted: string[] = [];
  const input = raw.inputSchema;
  let inputSchema: McpToolInfo['inputSchema'];
  if (input === undefined || (isRecord(input) && input.type === undefined)) {
    inputSchema = { ...(isRecord(input) ? input : {}), type: 'object' };
    adapted.push(`its input schema had no type (${input === undefined ? 'none was sent' : 'JSON Schema {} and the like'}); taken as an object schema`);
  } else if (isRecord(input) && input.type === 'object') {
    inputSchema = input as McpToolInfo['inputSchema'];
  } else {
    const type = isRecord(input) ? describe(input.type) : describe(input);
    return { ok: false, name, why: `its input schema is ${isRecord(input) ? `of type ${type}` : type}, and tool arguments are an object` };
  }
  let outputSchema = raw.outputSchema as McpToolInfo['outputSchema'];
  if (outputSchema !== undefined && !(isRecord(outputSchema) && outputSchema.type === 'object')) {
    adapted.push(`its output schema is not an object schema (${isRecord(outputSchema) ? `type ${describe(outputSchema.type)}` : describe(outputSchema)}); left out`);
    outputSchema = undefined;
  }
  const tool = { ...raw, name, inputSchema, outputSchema } as McpToolInfo & { outputSchema?: McpToolInfo['outputSchema'] };
  if (outputSchema === undefined) delete tool.outputSchema;
  if (tool.description !== undefined && typeof tool.description !== 'string') {
    adapted.push('its description is not text; left out');
    delete (tool as { description?: unknown }).description;
  }
  return { ok: true, tool, adapted };
}

/** Any message as one line of at most `max` characters: a raw validation dump must not fill a log. */
export function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
