import { canonicalJson, type Logger } from '@weir/core';
import type { McpToolInfo } from './describe-tool.js';
import { lineDiff } from './line-diff.js';

/** What of a server's tool is pinned: everything the model reads or the pipeline checks. */
function pinnedShape(tool: McpToolInfo): Record<string, unknown> {
  return { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations };
}

interface Version {
  readonly fingerprint: string;
  readonly shape: Record<string, unknown>;
}

/** A changed definition waiting for its approval, with what changed. */
export interface PendingChange {
  readonly fingerprint: string;
  readonly diff: string;
}

/**
 * The definitions of one server's tools as they were first seen (or last approved), by weir name,
 * for as long as the plugin is loaded. A definition that comes back different after list_changed
 * or a restart (a "rug pull": same name, new description or schema) is a new version: it is logged
 * with a diff, and `pending` names it until a call of that version has been approved and run
 * (`accept`), so no session grant or allow rule given for the old version lets it run unasked.
 */
export class ToolPins {
  readonly #pinned = new Map<string, Version>();
  readonly #pending = new Map<string, PendingChange>();

  constructor(
    private readonly server: string,
    private readonly logger: Logger,
  ) {}

  /** Records a definition of a listing; returns its fingerprint (the version `accept` takes). */
  see(weirName: string, tool: McpToolInfo): string {
    const shape = pinnedShape(tool);
    const fingerprint = canonicalJson(shape);
    const pinned = this.#pinned.get(weirName);
    if (pinned === undefined) {
      this.#pinned.set(weirName, { fingerprint, shape });
      return fingerprint;
    }
    if (pinned.fingerprint === fingerprint) {
      this.#pending.delete(weirName);
      return fingerprint;
    }
    if (this.#pending.get(weirName)?.fingerprint === fingerprint) return fingerprint;
    const diff = lineDiff(JSON.stringify(pinned.shape, null, 2), JSON.stringify(shape, null, 2));
    this.#pending.set(weirName, { fingerprint, diff });
    this.logger.warn(
      { server: this.server, tool: tool.name, diff },
      `the MCP server "${this.server}" changed the definition of "${tool.name}": a new version, which needs approval again (grants and allow rules of the old one do not apply until then)`,
    );
    return fingerprint;
  }

  /** The change waiting for approval on this tool, if any. */
  pending(weirName: string): PendingChange | undefined {
    return this.#pending.get(weirName);
  }

  /** A call of version `fingerprint` was approved and runs: that version is the pinned one now. */
  accept(weirName: string, fingerprint: string): void {
    const change = this.#pending.get(weirName);
    if (change === undefined || change.fingerprint !== fingerprint) return;
    this.#pending.delete(weirName);
    this.#pinned.set(weirName, { fingerprint, shape: JSON.parse(fingerprint) as Record<string, unknown> });
  }
}
