import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** One entry of `network.allow`, normalised: an exact name, or every name under a suffix (`*.pypi.org`). */
export interface HostPattern {
  /** The name (exact) or the suffix without its `*.` (wildcard), in lower-case ASCII. */
  readonly name: string;
  readonly wildcard: boolean;
}

/**
 * A host name in the one form names are compared in: lower case, IDN in ASCII (punycode, as
 * `domainToASCII` writes it), one trailing dot dropped. Returns `undefined` for what is not a
 * name: an empty label, a character a DNS name cannot hold, an IP literal (raw IPs are never
 * matched by name).
 */
export function normaliseHost(host: string): string | undefined {
  const trimmed = host.endsWith('.') ? host.slice(0, -1) : host;
  if (trimmed === '' || isIP(trimmed.replace(/^\[|\]$/g, '')) !== 0) return undefined;
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (!labels.every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label))) return undefined;
  // domainToASCII accepts an all-digit dotted name it reads as IPv4 ("127.1"): never a name.
  if (/^[0-9.]+$/.test(ascii) || /^0x/i.test(labels.at(-1)!)) return undefined;
  return ascii;
}

/** Parses one `network.allow` entry; throws a one-line `TypeError` naming it when it is not a name or `*.name`. */
export function parseHostPattern(entry: string): HostPattern {
  const wildcard = entry.startsWith('*.');
  const name = normaliseHost(wildcard ? entry.slice(2) : entry);
  if (name === undefined || name.includes('*')) {
    throw new TypeError(`shellTools: network.allow entry ${JSON.stringify(entry)} is not a host name or *.name (IP addresses go in network.allowAddresses, and only let an allowed name resolve to them).`);
  }
  return Object.freeze({ name, wildcard });
}

/** True when the normalised `host` is an exact entry, or lies strictly under a wildcard's suffix (`*.pypi.org` does not match `pypi.org`). */
export function hostAllowed(host: string, patterns: readonly HostPattern[]): boolean {
  return patterns.some((pattern) => (pattern.wildcard ? host.endsWith(`.${pattern.name}`) : host === pattern.name));
}
