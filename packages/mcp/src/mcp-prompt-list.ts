import type { Logger } from '@weir/core';
import { readPrompt, type McpPrompt } from './mcp-prompts.js';

/**
 * The prompts one server offers, as last listed. `refresh` lists them again (at load, after
 * `notifications/prompts/list_changed`, after a restart) and swaps the whole list at once; refreshes
 * never overlap (one asked for during another runs once more after it). A refresh that fails keeps
 * the previous list and logs a warning.
 */
export class McpPromptList {
  #prompts: readonly McpPrompt[] = [];
  #refreshing: Promise<void> | undefined;
  #again = false;

  constructor(
    private readonly server: string,
    private readonly logger: Logger,
    /** The server's whole `prompts/list`, every page, as sent. */
    private readonly list: () => Promise<readonly unknown[]>,
  ) {}

  /** The prompts as last listed, in the server's order. */
  current(): readonly McpPrompt[] {
    return this.#prompts;
  }

  /** Lists again; resolves once this refresh (and any asked for meanwhile) is done. Never rejects. */
  refresh(): Promise<void> {
    if (this.#refreshing !== undefined) {
      this.#again = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      do {
        this.#again = false;
        try {
          const listed = await this.list();
          const prompts: McpPrompt[] = [];
          const names = new Set<string>();
          for (const raw of listed) {
            const prompt = readPrompt(raw);
            if (prompt === undefined || names.has(prompt.name)) {
              this.logger.warn({ server: this.server }, `left out an entry of the prompt list of the MCP server "${this.server}": ${prompt === undefined ? 'it has no name' : `the name "${prompt.name}" comes twice`}`);
              continue;
            }
            names.add(prompt.name);
            prompts.push(prompt);
          }
          this.#prompts = Object.freeze(prompts);
        } catch (error) {
          this.logger.warn({ server: this.server, err: error }, `could not list the prompts of the MCP server "${this.server}"; the previous list stays`);
        }
      } while (this.#again);
    })().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Forgets the list (the plugin unloaded). */
  clear(): void {
    this.#prompts = [];
  }
}
