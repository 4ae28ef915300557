import { Socket } from 'node:net';

/**
 * The peer benchmark must not touch the network (no telemetry or trace export, no provider call).
 * Rather than trust configuration alone, each peer script installs this guard first: `fetch` and
 * TCP connects throw, and the attempts are counted so the report shows them even when a library
 * swallows the error (a background exporter would).
 */

let attempts = 0;

export function installNetworkGuard(): void {
  globalThis.fetch = async (input: string | URL | Request): Promise<Response> => {
    attempts++;
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    throw new Error(`peer benchmark: network is off (fetch ${target})`);
  };
  const connect = Socket.prototype.connect;
  Socket.prototype.connect = function guardedConnect(this: Socket, ...args: unknown[]): Socket {
    // Local IPC (a pipe path) is not the network; anything with a port is.
    const first = args[0];
    const isPipe = typeof first === 'string' || (typeof first === 'object' && first !== null && 'path' in first);
    if (isPipe) return (connect as (...a: unknown[]) => Socket).apply(this, args);
    attempts++;
    throw new Error('peer benchmark: network is off (socket connect)');
  } as typeof Socket.prototype.connect;
}

export function networkAttempts(): number {
  return attempts;
}
