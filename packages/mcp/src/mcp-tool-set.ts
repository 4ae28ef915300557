import { namespacedName, ToolRegistry, type Disposer, type Logger, type ToolDefinition } from '@weir/core';
import { checkTool, oneLine } from './check-tool-listing.js';
import type { McpToolInfo } from './describe-tool.js';

/** Builds the weir tool for one server tool, named `weirName`. */
export type ToolFactory = (tool: McpToolInfo, weirName: string) => ToolDefinition;

interface Entry {
  readonly definition: ToolDefinition;
  readonly dispose: Disposer;
}

/**
 * The weir tools of one server. `replace` swaps the whole set at once: every new definition is
 * built and compiled first, then the old tools are removed and the new ones registered in one
 * synchronous step, so no call and no `schemas()` ever sees half of each. A call already running
 * holds the tool it started with and finishes against it.
 */
export class McpToolSet {
  #entries: readonly Entry[] = [];

  constructor(
    private readonly server: string,
    private readonly register: (tool: ToolDefinition) => Disposer,
    private readonly build: ToolFactory,
    private readonly logger: Logger,
    /** True when the server runs tool calls as tasks (its `tasks.requests.tools.call` capability). */
    private readonly runsToolTasks: () => boolean = () => false,
  ) {}

  /** Registered weir names, in the server's order. */
  names(): string[] {
    return this.#entries.map((entry) => entry.definition.name);
  }

  /**
   * Replaces the set with `tools`. A tool whose name or schema weir cannot take, or that must run
   * as a task on a server that offers none, is skipped with a warning (one odd tool does not make the server useless). A name another plugin already holds
   * throws (`DUPLICATE_TOOL`), and the previous set stays registered.
   */
  replace(tools: readonly unknown[]): void {
    const definitions = this.#prepare(tools);
    const previous = this.#entries;
    for (const entry of previous) entry.dispose();
    const next: Entry[] = [];
    try {
      for (const definition of definitions) next.push({ definition, dispose: this.register(definition) });
    } catch (error) {
      for (const entry of next) entry.dispose();
      // The names were free a moment ago (this set held them), so the old set registers again.
      this.#entries = previous.map(({ definition }) => ({ definition, dispose: this.register(definition) }));
      throw error;
    }
    this.#entries = next;
  }

  /** Removes every tool of the set. */
  clear(): void {
    for (const entry of this.#entries) entry.dispose();
    this.#entries = [];
  }

  #prepare(tools: readonly unknown[]): ToolDefinition[] {
    // Compiled in a scratch registry first: a bad schema is found before anything is swapped.
    const scratch = new ToolRegistry();
    const definitions: ToolDefinition[] = [];
    for (const raw of tools) {
      const checked = checkTool(raw);
      if (!checked.ok) {
        this.logger.warn({ server: this.server, tool: checked.name }, `skipped the MCP tool ${checked.name.startsWith('(') ? checked.name : `"${checked.name}"`}: ${oneLine(checked.why)}`);
        continue;
      }
      const tool = checked.tool;
      const skip = (why: string, err?: unknown) => this.logger.warn({ server: this.server, tool: tool.name, err }, `skipped the MCP tool "${tool.name}": ${oneLine(why)}`);
      for (const note of checked.adapted) this.logger.warn({ server: this.server, tool: tool.name }, `adapted the MCP tool "${tool.name}": ${note}`);
      // The protocol forbids a task to a server that does not offer them, whatever a tool says.
      if (tool.execution?.taskSupport === 'required' && !this.runsToolTasks()) {
        skip('it can only be run as a task (taskSupport "required"), and the server does not offer tasks for tool calls (no tasks.requests.tools.call capability)');
        continue;
      }
      let name: string;
      try {
        // Illegal characters or an overlong name: legal, stable and distinct through a short hash.
        name = namespacedName(this.server, tool.name);
      } catch (error) {
        skip(error instanceof Error ? error.message : String(error), error);
        continue;
      }
      if (scratch.has(name)) {
        skip(`another tool of the server maps to the same name "${name}"`);
        continue;
      }
      const definition = this.build(tool, name);
      try {
        scratch.register(definition);
      } catch (error) {
        skip(error instanceof Error ? error.message : String(error), error);
        continue;
      }
      definitions.push(definition);
    }
    return definitions;
  }
}
