import { createDisposer, type Disposer } from '../disposer.js';
import type { ToolDefinition, ToolRetryPolicy, ToolTier } from './define-tool.js';
import { HarnessError } from '../harness-error.js';
import { compileSchema, type CompiledSchema, type JsonSchema } from './schema-validator.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TIERS: ReadonlySet<string> = new Set<ToolTier>(['read-only', 'write', 'dangerous']);

/** The model view of a tool: no `execute`, nothing the model should not see. */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/** The execution view: the definition plus what registration compiled, once. */
export interface RegisteredTool extends ToolDefinition {
  readonly tier: ToolTier;
  /** The JSON Schema of the arguments, as the model sees it. */
  readonly jsonSchema: JsonSchema;
  readonly arguments: CompiledSchema;
  readonly outputSchema: CompiledSchema | undefined;
  readonly retryPolicy: ToolRetryPolicy | undefined;
  /** The definition exactly as it was registered. */
  readonly definition: ToolDefinition;
}

/**
 * Keeps the tools: one map with two views. `register` is an effect and returns its undo.
 * Programmer mistakes throw `HarnessError` at registration, never at call time.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  #schemas: readonly ToolSchema[] | undefined;

  /**
   * Compiles and adds `tool`. Throws `INVALID_TOOL`, `INVALID_TOOL_NAME`, `INVALID_SCHEMA` or
   * `DUPLICATE_TOOL`. The returned disposer removes exactly this registration.
   */
  register(tool: ToolDefinition): Disposer {
    const name: unknown = (tool as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && this.#tools.has(name)) {
      throw new HarnessError('DUPLICATE_TOOL', `A tool named "${name}" is already registered. Tool names must be unique in a registry.`);
    }
    const registered = compileTool(tool);
    this.#tools.set(registered.name, registered);
    this.#schemas = undefined;
    return createDisposer(() => {
      if (this.#tools.get(registered.name) !== registered) return;
      this.#tools.delete(registered.name);
      this.#schemas = undefined;
    });
  }

  /** The execution view of one tool, or `undefined`. */
  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Registered names, in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  get size(): number {
    return this.#tools.size;
  }

  /** The model view: `{ name, description, parameters }` per tool. Cached and frozen until the registry changes. */
  schemas(): readonly ToolSchema[] {
    this.#schemas ??= Object.freeze(
      [...this.#tools.values()].map((tool) =>
        Object.freeze({ name: tool.name, description: tool.description, parameters: tool.jsonSchema }),
      ),
    );
    return this.#schemas;
  }
}

function compileTool(tool: ToolDefinition): RegisteredTool {
  if (typeof tool !== 'object' || tool === null) {
    throw new HarnessError('INVALID_TOOL', `A tool must be an object made with defineTool, got ${tool === null ? 'null' : typeof tool}.`);
  }
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    throw new HarnessError('INVALID_TOOL_NAME', `Invalid tool name ${JSON.stringify(tool.name)}: use 1 to 64 letters, digits, "_" or "-".`);
  }
  const owner = `tool "${tool.name}"`;
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw new HarnessError('INVALID_TOOL', `${owner}: a description is required; it is how the model decides when to call the tool.`);
  }
  if (typeof tool.execute !== 'function') {
    throw new HarnessError('INVALID_TOOL', `${owner}: execute must be a function.`);
  }
  if (tool.tier !== undefined && !TIERS.has(tool.tier)) {
    throw new HarnessError('INVALID_TOOL', `${owner}: tier must be "read-only", "write" or "dangerous", got ${JSON.stringify(tool.tier)}.`);
  }
  if (tool.timeoutMs !== undefined && !(typeof tool.timeoutMs === 'number' && tool.timeoutMs > 0)) {
    throw new HarnessError('INVALID_TOOL', `${owner}: timeoutMs must be a positive number of milliseconds (or Infinity), got ${String(tool.timeoutMs)}.`);
  }
  const retryPolicy = normaliseRetry(tool.retry, owner);
  const args = compileSchema(tool.parameters, `${owner} parameters`, { requireObject: true });
  const outputSchema =
    tool.output?.schema === undefined ? undefined : compileSchema(tool.output.schema, `${owner} output.schema`, { requireObject: false });
  return Object.freeze({
    ...tool,
    tier: tool.tier ?? 'dangerous',
    jsonSchema: args.jsonSchema,
    arguments: args,
    outputSchema,
    retryPolicy,
    definition: tool,
  });
}

function normaliseRetry(retry: ToolDefinition['retry'], owner: string): ToolRetryPolicy | undefined {
  if (retry === undefined || retry === 0) return undefined;
  const policy = typeof retry === 'number' ? { retries: retry } : retry;
  if (!Number.isInteger(policy.retries) || policy.retries < 0) {
    throw new HarnessError('INVALID_TOOL', `${owner}: retry.retries must be a non-negative integer, got ${String(policy.retries)}.`);
  }
  return policy.retries === 0 ? undefined : policy;
}
