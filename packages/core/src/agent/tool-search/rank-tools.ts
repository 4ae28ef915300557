import type { ToolSchema } from '../../tools/tool-registry.js';

/** How much a query word counts where it is found: a tool's name says most about it. */
const NAME_WEIGHT = 3;
const DESCRIPTION_WEIGHT = 1;
const PARAMETER_WEIGHT = 1;
/** A word that only begins (or is the start of) a tool's word counts for this share: `invoices` finds `invoice`. */
const PREFIX_SHARE = 0.5;
/** Shortest word matched by prefix: shorter ones (`a`, `to`) would match nearly everything. */
const MIN_PREFIX = 3;
/** Query words that say nothing of a tool (`refund an invoice` is `refund invoice`). */
const STOP_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'and', 'any', 'by', 'for', 'from', 'i', 'in', 'is', 'it', 'me', 'my', 'of', 'on', 'or', 'some', 'that', 'the', 'this', 'to', 'with']);

/** The words of a tool, by where they were found, built once per tool schema. */
interface ToolWords {
  readonly name: ReadonlySet<string>;
  readonly description: ReadonlySet<string>;
  readonly parameters: ReadonlySet<string>;
}

const wordsOf = new WeakMap<ToolSchema, ToolWords>();

/**
 * Splits text into lowercase words: on anything not a letter or digit, on `_`, `-` and `__`, and
 * between a lowercase letter and a capital (`readTextFile` is `read text file`).
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

function toolWords(tool: ToolSchema): ToolWords {
  let words = wordsOf.get(tool);
  if (words === undefined) {
    const parameters: string[] = [];
    const properties = (tool.parameters as { properties?: unknown }).properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, value] of Object.entries(properties)) {
        parameters.push(...splitWords(key));
        const description = (value as { description?: unknown } | null)?.description;
        if (typeof description === 'string') parameters.push(...splitWords(description));
      }
    }
    words = { name: new Set(splitWords(tool.name)), description: new Set(splitWords(tool.description)), parameters: new Set(parameters) };
    wordsOf.set(tool, words);
  }
  return words;
}

/** How well `word` matches a set of a tool's words: 1 for the word itself, `PREFIX_SHARE` for a prefix either way, else 0. */
function matchOf(word: string, words: ReadonlySet<string>): number {
  if (words.has(word)) return 1;
  if (word.length < MIN_PREFIX) return 0;
  for (const candidate of words) {
    if (candidate.length >= MIN_PREFIX && (candidate.startsWith(word) || word.startsWith(candidate))) return PREFIX_SHARE;
  }
  return 0;
}

/**
 * The tools that best match a query, best first, at most `limit`: the query a tool's exact name is
 * that tool alone; otherwise tools are scored by the query's words found in their name (weighted most),
 * description and parameters (names and descriptions), common words (`a`, `the`, `to`) left out. Ties keep the registry's order. Tools that
 * match no word are left out, so the answer may be empty.
 */
export function rankTools(tools: readonly ToolSchema[], query: string, limit: number): ToolSchema[] {
  const exact = query.trim();
  const named = tools.find((tool) => tool.name === exact);
  if (named !== undefined) return [named];
  const words = [...new Set(splitWords(query))].filter((word) => !STOP_WORDS.has(word));
  const scored: { tool: ToolSchema; score: number; order: number }[] = [];
  tools.forEach((tool, order) => {
    const { name, description, parameters } = toolWords(tool);
    let score = 0;
    for (const word of words) {
      score += NAME_WEIGHT * matchOf(word, name) + DESCRIPTION_WEIGHT * matchOf(word, description) + PARAMETER_WEIGHT * matchOf(word, parameters);
    }
    if (score > 0) scored.push({ tool, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, limit).map((entry) => entry.tool);
}
