/** Most resources one server's session may be subscribed to. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 100;
/** Most changed resources named in one note; more are counted, not named. */
const NAMED = 20;

/**
 * The resources the model subscribed to on one server, and those the server said changed
 * (`notifications/resources/updated`) since the model last heard. The plugin tells the model with
 * the next tool result of the harness (a line of context beside it, as nested `AGENTS.md` files
 * join), so an update reaches the agent between its steps without a message of its own.
 */
export class ResourceUpdates {
  readonly #subscribed = new Set<string>();
  readonly #changed = new Set<string>();

  constructor(
    private readonly server: string,
    private readonly toolName: string,
  ) {}

  /** The subscribed URIs, in the order they were subscribed (sent again after a restart). */
  subscribed(): readonly string[] {
    return [...this.#subscribed];
  }

  get size(): number {
    return this.#subscribed.size;
  }

  has(uri: string): boolean {
    return this.#subscribed.has(uri);
  }

  add(uri: string): void {
    this.#subscribed.add(uri);
  }

  delete(uri: string): void {
    this.#subscribed.delete(uri);
    this.#changed.delete(uri);
  }

  /** The server said `uri` changed; an update for a resource no longer subscribed to is ignored. */
  updated(uri: string): void {
    if (this.#subscribed.has(uri)) this.#changed.add(uri);
  }

  /** The model has just read `uri`: what it read is the change. */
  read(uri: string): void {
    this.#changed.delete(uri);
  }

  /** The note for the next tool result, once; `undefined` (nothing built) when nothing changed. */
  take(): string | undefined {
    if (this.#changed.size === 0) return undefined;
    const uris = [...this.#changed];
    this.#changed.clear();
    const named = uris.slice(0, NAMED).join(', ');
    const more = uris.length > NAMED ? ` and ${uris.length - NAMED} more` : '';
    const which = uris.length === 1 ? 'A resource' : `${uris.length} resources`;
    return `[mcp: ${which} of the server "${this.server}" you subscribed to changed: ${named}${more}. Read it again with ${this.toolName} action "read" if it matters to the task.]`;
  }

  clear(): void {
    this.#subscribed.clear();
    this.#changed.clear();
  }
}
