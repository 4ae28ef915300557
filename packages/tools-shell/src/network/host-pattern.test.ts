import { describe, expect, it } from 'vitest';
import { isInternalAddress } from './address-class.js';
import { hostAllowed, normaliseHost, parseHostPattern } from './host-pattern.js';

describe('host patterns', () => {
  const patterns = ['registry.npmjs.org', '*.pypi.org', 'bücher.example'].map(parseHostPattern);

  it('normalises case, one trailing dot and IDN before matching', () => {
    expect(normaliseHost('Registry.NPMJS.org.')).toBe('registry.npmjs.org');
    expect(normaliseHost('BÜCHER.example')).toBe('xn--bcher-kva.example');
    expect(hostAllowed(normaliseHost('REGISTRY.npmjs.ORG.')!, patterns)).toBe(true);
    expect(hostAllowed(normaliseHost('xn--bcher-kva.example')!, patterns)).toBe(true);
  });

  it('matches a wildcard strictly below its suffix, and nothing that only ends with the same letters', () => {
    expect(hostAllowed('files.pypi.org', patterns)).toBe(true);
    expect(hostAllowed('a.b.pypi.org', patterns)).toBe(true);
    expect(hostAllowed('pypi.org', patterns)).toBe(false);
    expect(hostAllowed('evilpypi.org', patterns)).toBe(false);
    expect(hostAllowed('registry.npmjs.org.evil.test', patterns)).toBe(false);
    expect(hostAllowed('sub.registry.npmjs.org', patterns)).toBe(false);
  });

  it('never reads an IP literal or a malformed name as a name', () => {
    for (const host of ['127.0.0.1', '[::1]', '::1', '127.1', '0x7f.1', '2130706433', '', '.', 'a..b', 'a b.test', 'evil.test..']) {
      expect(normaliseHost(host), host).toBeUndefined();
    }
    expect(() => parseHostPattern('10.0.0.1')).toThrow(/network.allow entry "10.0.0.1"/);
    expect(() => parseHostPattern('*')).toThrow(TypeError);
    expect(() => parseHostPattern('a.*.b')).toThrow(TypeError);
  });

  it('classes loopback, private, link-local and mapped addresses as internal', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '2606:4700::1111', '::ffff:93.184.216.34']) expect(isInternalAddress(address), address).toBe(false);
  });
});
