/** When the agent offers `tool_search` instead of every tool's schema. */
export type ToolSearchWhen = 'auto' | 'always' | 'never';

/** `createAgent({ toolSearch })`: tools loaded on demand. See docs/agent-loop.md, "Tool search". */
export interface ToolSearchOptions {
  /**
   * `'auto'` (the default): on at a step whose tool schemas pass `threshold` tokens; `'always'`:
   * at every step that has tools; `'never'`: every tool's schema is sent, and the loop does no work for it.
   */
  readonly when?: ToolSearchWhen;
  /** Tokens of the step's tool schemas (estimated: characters of their JSON / 4) past which `'auto'` turns search on. Default: a tenth of the model's `metadata.contextWindow`, else 10 000. */
  readonly threshold?: number;
  /** Most tool names `tool_search`'s description lists; past it, only their namespaces and counts. Default 100. */
  readonly listNames?: number;
}

/** The options as the loop reads them. */
export interface ToolSearchSettings {
  readonly when: 'auto' | 'always';
  readonly threshold: number;
  readonly listNames: number;
}

/** The threshold when neither the options nor the model's context window give one. */
export const DEFAULT_TOOL_SEARCH_THRESHOLD = 10_000;
export const DEFAULT_LISTED_NAMES = 100;
const KEYS: ReadonlySet<string> = new Set(['when', 'threshold', 'listNames']);

/**
 * Reads `toolSearch` at `createAgent`: `undefined` when search is off (`'never'`), so a turn does
 * nothing for it. Throws `TypeError` for a malformed value.
 */
export function checkToolSearch(options: ToolSearchOptions | undefined, contextWindow: number | undefined): ToolSearchSettings | undefined {
  const where = 'createAgent: toolSearch';
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError(`${where} must be an object like { when: 'auto' }.`);
  for (const key of Object.keys(options ?? {})) {
    if (!KEYS.has(key)) throw new TypeError(`${where} has unknown key ${JSON.stringify(key)}; expected when, threshold, listNames.`);
  }
  const when = options?.when ?? 'auto';
  if (when !== 'auto' && when !== 'always' && when !== 'never') throw new TypeError(`${where}.when must be "auto", "always" or "never", got ${JSON.stringify(when)}.`);
  const threshold = options?.threshold ?? (contextWindow !== undefined && contextWindow > 0 ? Math.floor(contextWindow / 10) : DEFAULT_TOOL_SEARCH_THRESHOLD);
  if (!(typeof threshold === 'number' && threshold >= 0 && !Number.isNaN(threshold))) throw new TypeError(`${where}.threshold must be a number of tokens >= 0, got ${String(threshold)}.`);
  const listNames = options?.listNames ?? DEFAULT_LISTED_NAMES;
  if (!(Number.isInteger(listNames) && listNames >= 0)) throw new TypeError(`${where}.listNames must be an integer >= 0, got ${String(listNames)}.`);
  return when === 'never' ? undefined : { when, threshold, listNames };
}
