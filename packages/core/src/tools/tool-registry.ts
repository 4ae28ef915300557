import { createDisposer, type Disposer } from '../disposer.js';
import type { FileAction, ToolDefinition, ToolFiles, ToolPathArgument, ToolRetryPolicy, ToolTier } from './define-tool.js';
import { HarnessError } from '../harness-error.js';
import { compileSchema, type CompiledSchema, type JsonSchema } from './schema-validator.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TIERS: ReadonlySet<string> = new Set<ToolTier>(['read-only', 'write', 'dangerous']);
const FILE_ACTIONS: ReadonlySet<string> = new Set<FileAction>(['read', 'list', 'write', 'edit', 'delete']);
const PATH_KINDS: ReadonlySet<string> = new Set(['file', 'directory', 'any']);
const PATH_POINTER = /^[^.[\]]+(\[\])?(\.[^.[\]]+(\[\])?)*$/;
const PATH_ARGUMENT_KEYS: ReadonlySet<string> = new Set(['argument', 'kind', 'default']);

/** The model view of a tool: no `execute`, nothing the model should not see. */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/**
 * Where a registered tool comes from: the plugin that registered it (`undefined` when registered
 * on the harness directly), and for a tool a plugin brought from elsewhere (an MCP server, a remote
 * registry), the server's name. Policies key on it (`{ ask: { server: 'github' } }`).
 */
export interface ToolSource {
  readonly plugin: string | undefined;
  readonly server: string | undefined;
}

/** What `register` may say about where a tool comes from. */
export interface RegisterOptions {
  /** The server a plugin brought the tool from (an MCP server's name). */
  readonly server?: string;
}

/** `ToolFiles` with every path argument in its object form. */
export interface RegisteredToolFiles {
  readonly action: FileAction;
  readonly paths: readonly ToolPathArgument[];
}

/** The execution view: the definition plus what registration checked (schemas compile on their first use). */
export interface RegisteredTool extends Omit<ToolDefinition, 'files'> {
  readonly tier: ToolTier;
  /** What the tool declares about files, normalised; `undefined` when it declares nothing. */
  readonly files: RegisteredToolFiles | undefined;
  /** Where the tool comes from. */
  readonly source: ToolSource;
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
 * Programmer mistakes throw `HarnessError` at registration, never at call time; the one exception,
 * a schema whose shape is right but which Ajv refuses, becomes the calls' error result.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  /** Who registered each tool, for a collision's error: `plugin "github"`, or the harness's caller. */
  readonly #owners = new Map<string, string>();
  #schemas: readonly ToolSchema[] | undefined;

  /**
   * Checks and adds `tool`. Its schemas are checked for their shape here and compiled on the tool's
   * first call (a schema Ajv refuses then fails that call, `INVALID_SCHEMA`, never the registry).
   * Throws `INVALID_TOOL`, `INVALID_TOOL_NAME`, `INVALID_SCHEMA` or
   * `DUPLICATE_TOOL` (naming who holds the name and who asked, when known). `plugin` says who
   * registers it (a plugin's `ctx.tools` passes `plugin "<name>"`). The returned disposer removes
   * exactly this registration.
   */
  register(tool: ToolDefinition, options: RegisterOptions & { readonly plugin?: string } = {}): Disposer {
    const name: unknown = (tool as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && this.#tools.has(name)) {
      const holder = this.#owners.get(name) ?? 'the harness\'s caller';
      const asker = options.plugin === undefined ? 'the harness\'s caller' : `plugin "${options.plugin}"`;
      throw new HarnessError(
        'DUPLICATE_TOOL',
        `A tool named "${name}" is already registered by ${holder}; ${asker} cannot register another. Tool names must be unique in a registry (a plugin that brings tools it did not name registers them under a namespace: namespacedName()).`,
      );
    }
    const registered = compileTool(tool, sourceOf(options, tool));
    this.#tools.set(registered.name, registered);
    if (options.plugin !== undefined) this.#owners.set(registered.name, `plugin "${options.plugin}"`);
    this.#schemas = undefined;
    return createDisposer(() => {
      if (this.#tools.get(registered.name) !== registered) return;
      this.#tools.delete(registered.name);
      this.#owners.delete(registered.name);
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

  /** The model view: `{ name, description, parameters }` per tool. Cached and deep-frozen (a snapshot taken at registration) until the registry changes. */
  schemas(): readonly ToolSchema[] {
    this.#schemas ??= Object.freeze(
      [...this.#tools.values()].map((tool) =>
        Object.freeze({ name: tool.name, description: tool.description, parameters: tool.jsonSchema }),
      ),
    );
    return this.#schemas;
  }
}

function compileTool(tool: ToolDefinition, source: ToolSource): RegisteredTool {
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
  if (tool.idleTimeoutMs !== undefined && !(typeof tool.idleTimeoutMs === 'number' && tool.idleTimeoutMs > 0)) {
    throw new HarnessError('INVALID_TOOL', `${owner}: idleTimeoutMs must be a positive number of milliseconds, got ${String(tool.idleTimeoutMs)}.`);
  }
  const retryPolicy = normaliseRetry(tool.retry, owner);
  const args = compileSchema(tool.parameters, `${owner} parameters`, { requireObject: true });
  const outputSchema =
    tool.output?.schema === undefined ? undefined : compileSchema(tool.output.schema, `${owner} output.schema`, { requireObject: false });
  const files = normaliseFiles(tool.files, owner);
  return Object.freeze({
    ...tool,
    tier: tool.tier ?? 'dangerous',
    files,
    source,
    // A deep-frozen snapshot (compileSchema's): editing the author's object cannot desync the model view from validation.
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

function sourceOf(options: RegisterOptions & { readonly plugin?: string }, tool: ToolDefinition): ToolSource {
  const owner = `tool "${String((tool as { name?: unknown } | null)?.name)}"`;
  if (typeof options !== 'object' || options === null) throw new HarnessError('INVALID_TOOL', `${owner}: register options must be an object like { server: 'github' }.`);
  const { plugin, server } = options;
  if (server !== undefined && (typeof server !== 'string' || server.trim() === '')) {
    throw new HarnessError('INVALID_TOOL', `${owner}: the server it comes from must be a non-empty name, got ${JSON.stringify(server)}.`);
  }
  return Object.freeze({ plugin, server });
}

/**
 * Checks what a tool declares about files at registration, so a policy never meets a malformed
 * declaration at call time: a known action, and path arguments named like `path`, `options.target`,
 * `paths[]` or `edits[].file_path`, each with a known kind and a string default.
 */
function normaliseFiles(files: ToolFiles | undefined, owner: string): RegisteredToolFiles | undefined {
  if (files === undefined) return undefined;
  const where = `${owner}: files`;
  if (typeof files !== 'object' || files === null) throw new HarnessError('INVALID_TOOL', `${where} must be an object like { action: 'read', paths: ['path'] }.`);
  for (const key of Object.keys(files)) {
    if (key !== 'action' && key !== 'paths') throw new HarnessError('INVALID_TOOL', `${where} has unknown key ${JSON.stringify(key)}; expected action and paths.`);
  }
  if (!FILE_ACTIONS.has(files.action)) {
    throw new HarnessError('INVALID_TOOL', `${where}.action must be one of ${[...FILE_ACTIONS].map((name) => JSON.stringify(name)).join(', ')}, got ${JSON.stringify(files.action)}.`);
  }
  if (!Array.isArray(files.paths)) throw new HarnessError('INVALID_TOOL', `${where}.paths must be an array of argument names, got ${JSON.stringify(files.paths)}.`);
  const paths = files.paths.map((entry, index): ToolPathArgument => {
    const at = `${where}.paths[${index}]`;
    const spec: ToolPathArgument = typeof entry === 'string' ? { argument: entry } : entry;
    if (typeof spec !== 'object' || spec === null) throw new HarnessError('INVALID_TOOL', `${at} must be an argument name or { argument, kind?, default? }.`);
    for (const key of Object.keys(spec)) {
      if (!PATH_ARGUMENT_KEYS.has(key)) throw new HarnessError('INVALID_TOOL', `${at} has unknown key ${JSON.stringify(key)}; expected argument, kind, default.`);
    }
    if (typeof spec.argument !== 'string' || !PATH_POINTER.test(spec.argument)) {
      throw new HarnessError('INVALID_TOOL', `${at}.argument must name an argument like "path", "options.target", "paths[]" or "edits[].file_path", got ${JSON.stringify(spec.argument)}.`);
    }
    if (spec.kind !== undefined && !PATH_KINDS.has(spec.kind)) throw new HarnessError('INVALID_TOOL', `${at}.kind must be "file", "directory" or "any", got ${JSON.stringify(spec.kind)}.`);
    if (spec.default !== undefined && typeof spec.default !== 'string') throw new HarnessError('INVALID_TOOL', `${at}.default must be a string, got ${JSON.stringify(spec.default)}.`);
    return Object.freeze({ ...spec });
  });
  return Object.freeze({ action: files.action, paths: Object.freeze(paths) });
}
