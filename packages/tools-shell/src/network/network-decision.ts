import { isIP } from 'node:net';
import { isInternalAddress } from './address-class.js';
import { hostAllowed, normaliseHost } from './host-pattern.js';
import type { NetworkAllow } from './network-allow.js';

/** What the proxy decided for one connection. */
export type NetworkDecision =
  | { readonly allowed: true; readonly host: string; readonly port: number; readonly address: string }
  | { readonly allowed: false; readonly host: string; readonly port: number; readonly reason: string };

/**
 * Decides one connection the sandbox asked for: the name must be allowed (after normalising), the
 * port allowed, and every address it resolves to public unless that address was allowed. The
 * name is resolved here, by the proxy: the sandbox has no resolver. `host` in the answer is the
 * normalised name (the raw one when it is not a name).
 */
export async function decideConnection(rawHost: string, port: number, allow: NetworkAllow): Promise<NetworkDecision> {
  const host = normaliseHost(rawHost);
  const shown = host ?? rawHost;
  const refuse = (reason: string): NetworkDecision => ({ allowed: false, host: shown, port, reason });
  if (host === undefined) return refuse(isIP(rawHost.replace(/^\[|\]$/g, '')) !== 0 ? 'raw IP addresses are never allowed; use a host name in network.allow' : 'not a host name');
  if (!hostAllowed(host, allow.patterns)) return refuse('not in network.allow');
  if (!allow.ports.includes(port)) return refuse(`port ${port} is not in network.ports (${allow.ports.join(', ')})`);
  let addresses: readonly string[];
  try {
    addresses = await allow.lookup(host);
  } catch (error) {
    return refuse(`it does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (addresses.length === 0) return refuse('it does not resolve');
  const internal = addresses.find((address) => isInternalAddress(address) && !allow.allowAddresses.has(address.toLowerCase()));
  if (internal !== undefined) return refuse(`it resolves to ${internal}, a loopback, private or link-local address not in network.allowAddresses`);
  return { allowed: true, host, port, address: addresses[0]! };
}
