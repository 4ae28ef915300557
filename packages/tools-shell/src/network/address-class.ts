import { BlockList, isIP } from 'node:net';

/**
 * Addresses a public name must not resolve to: loopback, private, link-local, unique-local,
 * carrier-grade NAT, "this network", multicast and reserved ranges, and their IPv4-mapped IPv6 forms.
 * A name that resolves into them would turn the allow-list into a way to the host's own services
 * or the local network (DNS rebinding), so the proxy refuses it unless the address was allowed.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
  INTERNAL.addSubnet(`::ffff:${network}`, 96 + prefix, 'ipv6');
}
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** True when `address` (an IP literal) is loopback, private, link-local or otherwise not a public address. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
