import { describe, expect, it } from 'vitest';
import {
  DENY_NON_PUBLIC,
  forbiddenRange,
  parseCidrList,
  resolveDestination,
  type Lookup,
} from './destination';
import { DestinationError } from './errors';

const fixed =
  (table: Record<string, string[]>): Lookup =>
  async (host) => {
    const addresses = table[host];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof DestinationError ? error.reason : String(error)),
  );

describe('webhook destinations (SSRF guard)', () => {
  it('refuses loopback, private, link-local, metadata and other non-public addresses', () => {
    const refused = {
      '127.0.0.1': 'loopback',
      '::1': 'loopback',
      '::ffff:127.0.0.1': 'loopback',
      '10.0.0.5': 'private',
      '172.16.3.4': 'private',
      '192.168.1.1': 'private',
      '169.254.169.254': 'linkLocal',
      'fe80::1': 'linkLocal',
      'fd00:ec2::254': 'uniqueLocal',
      '100.100.100.200': 'carrierGradeNat',
      '0.0.0.0': 'unspecified',
      '224.0.0.1': 'multicast',
      '64:ff9b::a00:1': 'rfc6052',
    };
    for (const [address, range] of Object.entries(refused)) {
      expect(forbiddenRange(address, DENY_NON_PUBLIC), address).toBe(range);
    }
    expect(forbiddenRange('93.184.216.34', DENY_NON_PUBLIC)).toBeUndefined();
    expect(forbiddenRange('2606:4700::1111', DENY_NON_PUBLIC)).toBeUndefined();
  });

  it('allows non-public networks only when configured', () => {
    const policy = { allowedCidrs: parseCidrList('127.0.0.0/8, ::1') };
    expect(forbiddenRange('127.0.0.1', policy)).toBeUndefined();
    expect(forbiddenRange('::1', policy)).toBeUndefined();
    expect(forbiddenRange('::ffff:127.0.0.2', policy)).toBeUndefined();
    expect(forbiddenRange('10.0.0.1', policy)).toBe('private');
    expect(forbiddenRange('169.254.169.254', policy)).toBe('linkLocal');
    expect(() => parseCidrList('10.0.0.0/8, nonsense')).toThrow('nonsense');
    expect(parseCidrList('')).toEqual([]);
  });

  it('checks every address a name resolves to, not only the first', async () => {
    const lookup = fixed({
      'hooks.example.com': ['93.184.216.34'],
      'rebind.example.com': ['93.184.216.34', '10.0.0.7'],
      'metadata.example.com': ['169.254.169.254'],
    });
    await expect(
      resolveDestination('https://hooks.example.com/in', DENY_NON_PUBLIC, lookup),
    ).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect(
      await refusal(resolveDestination('https://rebind.example.com/', DENY_NON_PUBLIC, lookup)),
    ).toBe('forbidden-address');
    expect(
      await refusal(resolveDestination('http://metadata.example.com/', DENY_NON_PUBLIC, lookup)),
    ).toBe('forbidden-address');
    expect(
      await refusal(resolveDestination('https://gone.example.com/', DENY_NON_PUBLIC, lookup)),
    ).toBe('unresolvable');
  });

  it('checks address literals without DNS, and refuses what is not an http(s) URL', async () => {
    const lookup: Lookup = () => Promise.reject(new Error('no DNS for literals'));
    for (const url of ['http://169.254.169.254/latest', 'http://[::1]:8080/', 'http://10.1.1.1/']) {
      expect(await refusal(resolveDestination(url, DENY_NON_PUBLIC, lookup)), url).toBe(
        'forbidden-address',
      );
    }
    for (const url of ['ftp://example.com/', 'https://user:pw@example.com/', 'not a url']) {
      expect(await refusal(resolveDestination(url, DENY_NON_PUBLIC, lookup)), url).toBe(
        'invalid-url',
      );
    }
  });
});
