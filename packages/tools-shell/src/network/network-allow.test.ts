import { describe, expect, it } from 'vitest';
import { resolveShellOptions } from '../shell-options.js';
import { decideConnection } from './network-decision.js';
import { DEFAULT_NETWORK_PORTS, resolveNetworkAllow } from './network-allow.js';

describe('network: { allow }', () => {
  it('defaults to ports 443 and 80 and keeps the sandbox without a route', () => {
    const options = resolveShellOptions({ root: '/w', network: { allow: ['registry.npmjs.org'] } });
    expect(options.network).toBe(false);
    expect(options.networkAllow?.ports).toEqual(DEFAULT_NETWORK_PORTS);
    expect(DEFAULT_NETWORK_PORTS).toEqual([443, 80]);
  });

  it('refuses each bad entry with one line naming it', () => {
    const bad: [unknown, RegExp][] = [
      [{ allow: 'github.com' }, /network.allow must be an array of host names/],
      [{ allow: ['1.2.3.4'] }, /network.allow entry "1.2.3.4" is not a host name/],
      [{ allow: ['ok.test'], ports: [0] }, /network.ports must be/],
      [{ allow: ['ok.test'], allowAddresses: ['localhost'] }, /network.allowAddresses must be an array of IP addresses/],
      [{ allow: ['ok.test'], proxy: 'x' }, /unknown network option\(s\) proxy/],
      ['yes', /network must be a boolean or \{ allow/],
    ];
    for (const [network, message] of bad) expect(() => resolveShellOptions({ root: '/w', network: network as never })).toThrow(message);
    expect(() => resolveShellOptions({ root: '/w', network: { allow: ['ok.test'] }, unsafeNoSandbox: true })).toThrow(/network.allow needs the sandbox/);
  });

  it('refuses a name when any of its addresses is internal, unless that address is allowed; a lookup failure is a refusal', async () => {
    const table: Record<string, string[]> = { 'mixed.test': ['93.184.216.34', '10.0.0.5'], 'mirror.test': ['10.0.0.5'] };
    const allow = resolveNetworkAllow({ allow: ['*.test'], allowAddresses: ['10.0.0.5'], lookup: async (host) => table[host] ?? Promise.reject(Object.assign(new Error('no'), { code: 'ENOTFOUND' })) });
    expect(await decideConnection('mirror.test', 443, allow)).toEqual({ allowed: true, host: 'mirror.test', port: 443, address: '10.0.0.5' });
    expect(await decideConnection('mixed.test', 443, allow)).toMatchObject({ allowed: true });
    const strict = resolveNetworkAllow({ allow: ['*.test'], lookup: allow.lookup });
    expect(await decideConnection('mixed.test', 443, strict)).toMatchObject({ allowed: false, reason: expect.stringContaining('resolves to 10.0.0.5') });
    expect(await decideConnection('gone.test', 443, strict)).toMatchObject({ allowed: false, reason: 'it does not resolve (ENOTFOUND)' });
    expect(await decideConnection('mirror.test', 8080, strict)).toMatchObject({ allowed: false, reason: 'port 8080 is not in network.ports (443, 80)' });
  });
});
