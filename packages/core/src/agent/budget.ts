import { cacheReadOf } from './add-usage.js';
import type { ModelPrice, Usage } from './model.js';

export type { ModelPrice } from './model.js';

/**
 * Limits on one turn. Each is checked before every model call: the turn stops with
 * `budget_exhausted` (naming the limit in `result.budget`) at the first step that would exceed one.
 */
export interface Budget {
  /** Model calls (a subagent's and a compaction's included). */
  readonly steps?: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /**
   * Dollars, priced by the id of the model that answered each call: from `prices`, else from that
   * model's own `metadata.prices`. Cache reads and writes are priced at their own rates.
   */
  readonly costUsd?: number;
  /** Milliseconds since the turn started. Checked between steps: it does not cut a running call (use a signal for that). */
  readonly wallMs?: number;
  /** Price per model id (`model.id`, e.g. `openai:gpt-4.1-mini`). Needed with `costUsd` unless the models state their prices. */
  readonly prices?: Readonly<Record<string, ModelPrice>>;
}

/** Which limit stopped a turn. */
export type BudgetName = 'steps' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'wallMs';

const LIMITS: readonly BudgetName[] = ['steps', 'inputTokens', 'outputTokens', 'costUsd', 'wallMs'];

/**
 * Throws `TypeError` for a budget that is not one: a programmer mistake, caught in `createAgent`.
 * `modelPriced`: the agent's model states its own price, so `costUsd` needs no `prices`.
 */
export function checkBudget(budget: unknown, modelPriced = false): Budget {
  if (typeof budget !== 'object' || budget === null) throw new TypeError('createAgent: budget must be an object.');
  const given = budget as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (key !== 'prices' && !(LIMITS as readonly string[]).includes(key)) throw new TypeError(`createAgent: budget has an unknown limit "${key}" (known: ${LIMITS.join(', ')}, prices).`);
  }
  for (const name of LIMITS) {
    const value = given[name];
    if (value !== undefined && !(typeof value === 'number' && value >= 0)) throw new TypeError(`createAgent: budget.${name} must be a number >= 0, got ${String(value)}.`);
  }
  const prices = given.prices;
  if (prices !== undefined) {
    if (typeof prices !== 'object' || prices === null) throw new TypeError('createAgent: budget.prices must map model ids to prices.');
    for (const [id, price] of Object.entries(prices)) {
      const p = price as Partial<ModelPrice> | null;
      const ok = (v: unknown, optional = false) => (optional && v === undefined) || (typeof v === 'number' && v >= 0 && Number.isFinite(v));
      if (!(p && ok(p.inputPerMillion) && ok(p.outputPerMillion) && ok(p.cachedInputPerMillion, true) && ok(p.cacheReadPerMillion, true) && ok(p.cacheWritePerMillion, true))) {
        throw new TypeError(`createAgent: budget.prices["${id}"] must be { inputPerMillion, outputPerMillion, cacheReadPerMillion?, cacheWritePerMillion? }, numbers >= 0.`);
      }
    }
  } else if (given.costUsd !== undefined && !modelPriced) {
    throw new TypeError('createAgent: budget.costUsd needs budget.prices (the price of each model id).');
  }
  return budget as Budget;
}

/**
 * What one turn has spent, against its budget and (for a subagent) its parent's meter: a child's
 * spend is the parent's spend, so the parent's budget reaches it.
 */
export class BudgetMeter {
  readonly #budget: Budget;
  readonly #parent: BudgetMeter | undefined;
  readonly #startedAt = Date.now();
  #steps = 0;
  #inputTokens = 0;
  #outputTokens = 0;
  #costUsd = 0;
  /** The input of the latest call: the next one re-sends at least that history. */
  #lastInput = 0;
  #unpriced: string | undefined;

  constructor(budget: Budget, parent?: BudgetMeter) {
    this.#budget = budget;
    this.#parent = parent;
  }

  /** What was spent so far, for the turn result. */
  get spent(): { readonly steps: number; readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number; readonly wallMs: number } {
    return { steps: this.#steps, inputTokens: this.#inputTokens, outputTokens: this.#outputTokens, costUsd: this.#costUsd, wallMs: Date.now() - this.#startedAt };
  }

  /**
   * The limit the next model call would exceed, or `undefined` to go on. Tokens and cost are
   * projected: the next call re-sends at least the last call's input. A model with no price fails
   * closed (`costUsd`): its spend cannot be known. A subagent's meter asks its parent's with the
   * child's own projection: the child's next call is what would be spent.
   */
  exhausted(nextInput: number = this.#lastInput, nextModel: string = this.#lastModel): BudgetName | undefined {
    const b = this.#budget;
    const own =
      b.steps !== undefined && this.#steps + 1 > b.steps
        ? 'steps'
        : b.inputTokens !== undefined && this.#inputTokens + nextInput > b.inputTokens
          ? 'inputTokens'
          : b.outputTokens !== undefined && this.#outputTokens >= b.outputTokens
            ? 'outputTokens'
            : b.costUsd !== undefined && (this.#unpriced !== undefined || this.#costUsd + this.#inputCost(nextModel, nextInput) > b.costUsd)
              ? 'costUsd'
              : b.wallMs !== undefined && Date.now() - this.#startedAt >= b.wallMs
                ? 'wallMs'
                : undefined;
    return own ?? this.#parent?.exhausted(nextInput, nextModel);
  }

  #lastModel = '';

  /**
   * Adds one model call's usage (estimated by the caller when the provider reported none). `own` is
   * false when a subagent's call reaches this meter: it counts, but does not project this turn's next call.
   */
  charge(modelId: string, usage: Usage, own = true, modelPrice?: ModelPrice): void {
    this.#steps += 1;
    this.#inputTokens += usage.inputTokens;
    this.#outputTokens += usage.outputTokens;
    if (own) {
      this.#lastInput = usage.inputTokens;
      this.#lastModel = modelId;
    }
    if (modelPrice !== undefined && !this.#known.has(modelId)) this.#known.set(modelId, modelPrice);
    if (this.#budget.costUsd !== undefined) {
      const price = this.#priceOf(modelId);
      if (price === undefined) this.#unpriced = modelId;
      else this.#costUsd += costOf(usage, price);
    }
    this.#parent?.charge(modelId, usage, false, modelPrice);
  }

  /** True when a limit here or in a parent counts tokens or dollars: a call without reported usage must then be estimated. */
  get countsTokens(): boolean {
    const b = this.#budget;
    return b.inputTokens !== undefined || b.outputTokens !== undefined || b.costUsd !== undefined || this.#parent?.countsTokens === true;
  }

  /** The model id that had no price, when one did (the turn's log says which). */
  get unpriced(): string | undefined {
    return this.#unpriced ?? this.#parent?.unpriced;
  }

  /** Prices the models stated (`metadata.prices`), by id, learnt as they answer. */
  readonly #known = new Map<string, ModelPrice>();

  #priceOf(modelId: string): ModelPrice | undefined {
    return this.#budget.prices?.[modelId] ?? this.#known.get(modelId);
  }

  #inputCost(modelId: string, tokens: number): number {
    const price = this.#priceOf(modelId);
    return price === undefined ? 0 : (tokens * price.inputPerMillion) / 1e6;
  }
}

/**
 * What one call cost in dollars: uncached input, cache reads and cache writes each at its own
 * price (reads default to the older `cachedInputPerMillion`, then to the input price; writes to
 * the input price), plus output. `usage.inputTokens` includes the cached tokens.
 */
export function costOf(usage: Usage, price: ModelPrice): number {
  const read = cacheReadOf(usage);
  const written = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - read - written);
  const readPrice = price.cacheReadPerMillion ?? price.cachedInputPerMillion ?? price.inputPerMillion;
  const writePrice = price.cacheWritePerMillion ?? price.inputPerMillion;
  return (fresh * price.inputPerMillion + read * readPrice + written * writePrice + usage.outputTokens * price.outputPerMillion) / 1e6;
}
