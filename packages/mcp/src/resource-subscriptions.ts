import type { McpResourceSource } from './mcp-resource-source.js';

/** Subscriptions one session holds at most. */
export const MAX_SUBSCRIPTIONS = 256;

/**
 * The resources one session subscribed to, polled every `pollMs` through the source's `version`:
 * a change (or a resource that stops being readable, or comes back) calls `updated(uri)` once.
 * Polling rather than `fs.watch`: it sees a file replaced by a rename (how editors and weir's own
 * `write_file` save), works on every file system, and costs one `lstat` per subscription per poll.
 */
export class ResourceSubscriptions {
  readonly #versions = new Map<string, string | undefined>();
  readonly #timer: ReturnType<typeof setInterval>;
  #polling = false;

  constructor(
    private readonly source: McpResourceSource,
    private readonly updated: (uri: string) => void,
    pollMs: number,
  ) {
    this.#timer = setInterval(() => void this.poll(), pollMs);
    this.#timer.unref();
  }

  /** Subscribes to `uri`; a refusal message when it cannot be read now or the session holds too many. */
  async add(uri: string): Promise<string | undefined> {
    if (this.#versions.has(uri)) return undefined;
    if (this.#versions.size >= MAX_SUBSCRIPTIONS) return `This session holds ${MAX_SUBSCRIPTIONS} subscriptions, the most it may; unsubscribe from one first.`;
    const now = await this.source.version(uri);
    if (!now.ok) return now.message;
    this.#versions.set(uri, now.version);
    return undefined;
  }

  delete(uri: string): void {
    this.#versions.delete(uri);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#versions.clear();
  }

  private async poll(): Promise<void> {
    // A slow file system never stacks polls.
    if (this.#polling || this.#versions.size === 0) return;
    this.#polling = true;
    try {
      for (const [uri, before] of [...this.#versions]) {
        const now = await this.source.version(uri);
        const version = now.ok ? now.version : undefined;
        // Unsubscribed while this poll awaited: nothing to say.
        if (!this.#versions.has(uri) || version === before) continue;
        this.#versions.set(uri, version);
        this.updated(uri);
      }
    } finally {
      this.#polling = false;
    }
  }
}
