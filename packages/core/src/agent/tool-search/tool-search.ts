import { HarnessError } from '../../harness-error.js';
import { parseArguments } from '../../pipeline/tool-arguments.js';
import type { ToolSchema } from '../../tools/tool-registry.js';
import { failureResult, successResult, type ToolResult } from '../../tools/tool-result.js';
import type { LanguageModel, ModelToolCall } from '../model.js';
import type { PlannedStep } from '../prepare-step.js';
import { DEFAULT_LIMIT, MAX_LIMIT, schemaTokens, TOOL_SEARCH_TOOL, ToolCatalog } from './tool-catalog.js';
import type { ToolSearchSettings } from './tool-search-options.js';
import { rankTools } from './rank-tools.js';

/** Longest description line a search result shows per tool (the whole schema comes with the tool itself). */
const SHOWN_DESCRIPTION = 200;

/**
 * Tool search for one agent: decides, per list of tools, whether a step offers them all or
 * `tool_search`, and keeps the last decision so a step whose tools did not change decides with one
 * identity check and no allocation.
 */
export class ToolSearch {
  readonly settings: ToolSearchSettings;
  #tools: readonly ToolSchema[] | undefined;
  #catalog: ToolCatalog | undefined;

  constructor(settings: ToolSearchSettings) {
    this.settings = settings;
  }

  /** The catalog of `tools` when search is on for them; `undefined` when they are all sent as they are. */
  catalogOf(tools: readonly ToolSchema[]): ToolCatalog | undefined {
    if (tools === this.#tools) return this.#catalog;
    const on = tools.length > 0 && (this.settings.when === 'always' || schemaTokens(tools) > this.settings.threshold);
    if (on && tools.some((tool) => tool.name === TOOL_SEARCH_TOOL)) {
      throw new HarnessError('POLICY_FAILED', `Tool search needs the tool name "${TOOL_SEARCH_TOOL}", and the registry has a tool of that name (rename it, or set toolSearch: { when: 'never' }).`);
    }
    this.#tools = tools;
    this.#catalog = on ? new ToolCatalog(tools, this.settings) : undefined;
    return this.#catalog;
  }

  /** The state of one turn: the tools found so far. */
  turn(): ToolSearchTurn {
    return new ToolSearchTurn(this);
  }
}

/**
 * One turn's tool search: the tools the model found, in the order found. Each step offers
 * `tool_search` first, then every tool found so far that the step could offer, in that order:
 * a find appends, so what came before stays the same (for prompt caching).
 */
export class ToolSearchTurn {
  readonly #search: ToolSearch;
  readonly #found: string[] = [];
  readonly #foundSet = new Set<string>();
  #catalog: ToolCatalog | undefined;

  constructor(search: ToolSearch) {
    this.#search = search;
  }

  /**
   * The step as tool search shapes it, over the tools it would offer (`planned`'s, or the
   * registry's); `planned` itself when search is off for them. Throws `POLICY_FAILED` when search
   * is on and a tool is named `tool_search`.
   */
  plan(registry: readonly ToolSchema[], planned: PlannedStep | undefined, model: LanguageModel): PlannedStep | undefined {
    const catalog = this.#search.catalogOf(planned?.tools ?? registry);
    this.#catalog = catalog;
    if (catalog === undefined) return planned;
    const tools: ToolSchema[] = [catalog.searchTool];
    for (const name of this.#found) {
      const tool = catalog.byName.get(name);
      if (tool !== undefined) tools.push(tool);
    }
    const step: PlannedStep = {
      model: planned?.model ?? model,
      tools,
      offered: new Set(tools.map((tool) => tool.name)),
      refusal: (name) =>
        catalog.byName.has(name)
          ? `The tool "${name}" is not loaded yet. Call ${TOOL_SEARCH_TOOL} with its name (or words for what it does) to load it, then call it again.`
          : `There is no tool named "${name}" at this step. Call ${TOOL_SEARCH_TOOL} to find the tools that can be called.`,
    };
    return planned?.options === undefined ? step : { ...step, options: planned.options };
  }

  /** Answers one `tool_search` call of this step: the tools found join the next steps' offer. Never throws. */
  answer(call: ModelToolCall): ToolResult {
    const meta = { callId: call.id, toolName: call.name, durationMs: 0, attempts: 1 };
    const parsed = parseArguments(call.arguments);
    if (!parsed.ok) return failureResult(meta, 'INVALID_ARGUMENTS', `Invalid arguments for ${TOOL_SEARCH_TOOL}: ${parsed.problem}`);
    const { query, limit = DEFAULT_LIMIT, ...rest } = parsed.value as { query?: unknown; limit?: unknown };
    const problem =
      typeof query !== 'string' || query.trim() === ''
        ? '/query: must be a non-empty string (words for what the tool should do, or its name)'
        : !(Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_LIMIT)
          ? `/limit: must be an integer from 1 to ${MAX_LIMIT}`
          : Object.keys(rest).length > 0
            ? `(root): unknown argument ${JSON.stringify(Object.keys(rest)[0])}; expected query and limit`
            : undefined;
    if (problem !== undefined) return failureResult(meta, 'INVALID_ARGUMENTS', `Invalid arguments for ${TOOL_SEARCH_TOOL}:\n- ${problem}`);
    const catalog = this.#catalog;
    const matches = catalog === undefined ? [] : rankTools(catalog.tools, query as string, limit as number);
    if (matches.length === 0) {
      return successResult(meta, Object.freeze({ tools: [] }), `No tool matches ${JSON.stringify(query)}. Try other words: what the tool does, or its exact name.`);
    }
    for (const tool of matches) {
      if (!this.#foundSet.has(tool.name)) {
        this.#foundSet.add(tool.name);
        this.#found.push(tool.name);
      }
    }
    const lines = matches.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`);
    const names = Object.freeze(matches.map((tool) => tool.name));
    return successResult(meta, Object.freeze({ tools: names }), `Loaded ${matches.length} tool${matches.length === 1 ? '' : 's'}; call ${matches.length === 1 ? 'it' : 'them'} directly from now on:\n${lines.join('\n')}`);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > SHOWN_DESCRIPTION ? `${line.slice(0, SHOWN_DESCRIPTION - 3)}...` : line;
}
