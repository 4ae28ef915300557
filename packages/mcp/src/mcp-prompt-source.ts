/** A prompt as `prompts/list` shows it. */
export interface ServedPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: ReadonlyArray<{ readonly name: string; readonly description?: string; readonly required?: boolean }>;
}

/** One content block of a prompt message. */
export type ServedPromptContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'resource'; readonly resource: { readonly uri: string; readonly mimeType?: string; readonly text: string } | { readonly uri: string; readonly mimeType?: string; readonly blob: string } };

export interface ServedPromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ServedPromptContent;
}

/**
 * What `serveHarness({ prompts })` offers as MCP prompts. `commandPrompts({ commands, skills })`
 * is the harness's slash commands and skills; any object of this shape works. None of the methods
 * may throw: `get` answers a refusal (`not-found`: no such prompt; `invalid`: bad arguments).
 */
export interface McpPromptSource {
  list(): readonly ServedPrompt[];
  get(
    name: string,
    args: Readonly<Record<string, string>>,
  ): Promise<{ readonly ok: true; readonly description?: string; readonly messages: readonly ServedPromptMessage[] } | { readonly ok: false; readonly reason: 'not-found' | 'invalid'; readonly message: string }>;
  /** Values for `argument` of prompt `name` starting like `value` (at most 100); none when absent. */
  complete?(name: string, argument: string, value: string): Promise<readonly string[]>;
}
