import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseHostPattern, type HostPattern } from './host-pattern.js';

/** Resolves a host name to its addresses (IP literals). */
export type HostLookup = (hostname: string) => Promise<readonly string[]>;

/** `shellTools({ network: { allow } })`: the sandbox reaches only these names, through the plugin's proxy. */
export interface NetworkAllowOptions {
  /** Host names (`registry.npmjs.org`) or suffixes (`*.pypi.org`: any name below it, not `pypi.org` itself). */
  readonly allow: readonly string[];
  /** Ports a connection may go to. Default `[443, 80]`. */
  readonly ports?: readonly number[];
  /**
   * Loopback, private or link-local addresses an allowed name may resolve to (a registry mirror
   * on the local network). By default a name resolving to any such address is refused.
   */
  readonly allowAddresses?: readonly string[];
  /**
   * How the proxy resolves an allowed name. Default: the host's resolver (`dns.lookup`, every
   * address). Meant for tests and for resolvers of your own; the sandbox never resolves anything.
   */
  readonly lookup?: HostLookup;
  /**
   * Let a call name more hosts in `run_command`'s `network` argument, for that command only
   * (exact names). Turn it on only with a policy that judges them (`@weir/safety`'s `network` rule
   * key allows or asks per host; `run_command` is dangerous, so the mode asks otherwise). Default false.
   */
  readonly perCallHosts?: boolean;
}

/** `network.allow` after validation. */
export interface NetworkAllow {
  readonly patterns: readonly HostPattern[];
  /** The entries as given, for messages. */
  readonly entries: readonly string[];
  readonly ports: readonly number[];
  readonly allowAddresses: ReadonlySet<string>;
  readonly lookup: HostLookup;
  readonly perCallHosts: boolean;
}

export const DEFAULT_NETWORK_PORTS = Object.freeze([443, 80]);

const KEYS = new Set(['allow', 'ports', 'allowAddresses', 'lookup', 'perCallHosts']);

const systemLookup: HostLookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Validates `network: { allow, ... }`; throws a one-line `TypeError` naming the bad entry. */
export function resolveNetworkAllow(options: NetworkAllowOptions): NetworkAllow {
  const unknown = Object.keys(options).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) throw fail(`unknown network option(s) ${unknown.join(', ')}`);
  if (!Array.isArray(options.allow) || !options.allow.every((entry) => typeof entry === 'string')) throw fail('network.allow must be an array of host names');
  const ports = options.ports ?? DEFAULT_NETWORK_PORTS;
  if (!Array.isArray(ports) || !ports.every((port) => Number.isInteger(port) && port > 0 && port < 65536)) throw fail('network.ports must be an array of port numbers (1-65535)');
  const addresses = options.allowAddresses ?? [];
  if (!Array.isArray(addresses) || !addresses.every((address) => typeof address === 'string' && isIP(address) !== 0)) throw fail('network.allowAddresses must be an array of IP addresses');
  if (options.perCallHosts !== undefined && typeof options.perCallHosts !== 'boolean') throw fail('network.perCallHosts must be a boolean');
  if (options.lookup !== undefined && typeof options.lookup !== 'function') throw fail('network.lookup must be a function (hostname) => Promise<string[]>');
  return Object.freeze({
    patterns: Object.freeze(options.allow.map(parseHostPattern)),
    entries: Object.freeze([...options.allow]),
    ports: Object.freeze([...ports]),
    allowAddresses: new Set(addresses.map((address) => address.toLowerCase())),
    lookup: options.lookup ?? systemLookup,
    perCallHosts: options.perCallHosts ?? false,
  });
}

/**
 * The allow-list of one call: the plugin's, plus the exact names the call asked for (its `network`
 * argument, judged by the policy before the command ran). Throws a one-line `TypeError` naming a
 * host that is not an exact name.
 */
export function withCallHosts(allow: NetworkAllow, hosts: readonly string[]): NetworkAllow {
  if (hosts.length === 0) return allow;
  const added = hosts.map((host) => {
    if (host.startsWith('*')) throw new TypeError(`network host ${JSON.stringify(host)}: a call names exact hosts, not *.suffix patterns.`);
    return parseHostPattern(host);
  });
  return Object.freeze({ ...allow, patterns: Object.freeze([...allow.patterns, ...added]), entries: Object.freeze([...allow.entries, ...hosts]) });
}

function fail(message: string): TypeError {
  return new TypeError(`shellTools: ${message}.`);
}
