import type { NetworkDecision } from './network-decision.js';

/** A host the proxy refused during a command, and why. */
export interface RefusedHost {
  readonly host: string;
  readonly port: number;
  readonly reason: string;
}

/** What the filtered network did during one command: each `host:port` once, in the order first seen. */
export interface NetworkReport {
  /** `host:port` the proxy connected to. */
  readonly allowed: readonly string[];
  readonly refused: readonly RefusedHost[];
}

/** Collects one command's decisions into a `NetworkReport` (a host asked for many times is listed once). */
export class NetworkLog {
  readonly #allowed = new Set<string>();
  readonly #refused = new Map<string, RefusedHost>();

  add(decision: NetworkDecision): void {
    const key = `${decision.host}:${decision.port}`;
    if (decision.allowed) this.#allowed.add(key);
    else if (!this.#refused.has(key)) this.#refused.set(key, { host: decision.host, port: decision.port, reason: decision.reason });
  }

  report(): NetworkReport {
    return { allowed: [...this.#allowed], refused: [...this.#refused.values()] };
  }
}
