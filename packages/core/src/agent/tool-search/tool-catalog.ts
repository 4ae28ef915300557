import { deepFreeze } from '../../deep-freeze.js';
import type { ToolSchema } from '../../tools/tool-registry.js';
import type { ToolSearchSettings } from './tool-search-options.js';

/** The name of the tool through which the model finds (and loads) the others. */
export const TOOL_SEARCH_TOOL = 'tool_search';

/** Characters per token of the estimate (as `estimateTokens`): about right for JSON with the common tokenizers. */
const CHARS_PER_TOKEN = 4;
const charsOf = new WeakMap<ToolSchema, number>();

/** The estimated tokens of one schema as a request carries it (its JSON). */
function schemaChars(tool: ToolSchema): number {
  let chars = charsOf.get(tool);
  if (chars === undefined) {
    chars = JSON.stringify(tool).length;
    charsOf.set(tool, chars);
  }
  return chars;
}

/** Estimated tokens of a list of tool schemas: characters of their JSON / 4. */
export function schemaTokens(tools: readonly ToolSchema[]): number {
  let chars = 0;
  for (const tool of tools) chars += schemaChars(tool);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * The tools a step could offer, made findable: each by name, and the `tool_search` schema that
 * names them (or, past `listNames`, their namespaces). Built once per list of tools (the registry's
 * cached view keeps its identity until it changes), so the schema sent is the same object, byte for
 * byte, step after step: a prompt cache keeps hitting.
 */
export class ToolCatalog {
  readonly tools: readonly ToolSchema[];
  readonly byName: ReadonlyMap<string, ToolSchema>;
  readonly searchTool: ToolSchema;

  constructor(tools: readonly ToolSchema[], settings: ToolSearchSettings) {
    this.tools = tools;
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.searchTool = deepFreeze({
      name: TOOL_SEARCH_TOOL,
      description: `Finds tools by what they do and loads them: only the tools it returns (and those it returned before in this turn) can be called. Search with a few words for what you need ("refund invoice") or a tool's exact name. ${findable(tools, settings.listNames)}`,
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, description: 'Words for what the tool should do, or its exact name.' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Most tools to load (default ${DEFAULT_LIMIT}).` },
        },
        required: ['query'],
        additionalProperties: false,
      },
    }) as ToolSchema;
  }
}

export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;

/** What the model is told can be found: the names, or past `listNames` their namespaces (`billing__*`, sorted) and counts. */
function findable(tools: readonly ToolSchema[], listNames: number): string {
  if (tools.length <= listNames) return `Tools that can be found: ${tools.map((tool) => tool.name).join(', ')}.`;
  const groups = new Map<string, number>();
  for (const tool of tools) {
    const cut = tool.name.indexOf('__');
    const group = cut > 0 ? `${tool.name.slice(0, cut)}__*` : 'other';
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  // Sorted: servers loaded in parallel register in any order, and the description should not change with it.
  const listed = [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([group, count]) => `${group} (${count})`).join(', ');
  return `${tools.length} tools can be found${groups.size > 1 || !groups.has('other') ? `: ${listed}` : ''}.`;
}
