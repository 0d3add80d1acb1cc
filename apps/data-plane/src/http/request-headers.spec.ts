import { describe, expect, it } from 'vitest';
import { bearerSecret, prefersGateway } from './request-headers';

describe('prefersGateway (RFC 7240 Prefer)', () => {
  it.each([
    ['gateway', true],
    ['Gateway', true],
    ['respond-async, gateway', true],
    ['gateway; strict', true],
    ['gateway=1', true],
    ['  wait=5 ,gateway', true],
    ['return=minimal, wait=10', false],
    ['gateways', false],
    ['x-gateway', false],
    ['note="a, gateway", wait=1', false],
    ['note="a \\" , gateway"', false],
    ['note="a", gateway', true],
    ['', false],
  ])('%j → %s', (field, expected) => {
    expect(prefersGateway(field)).toBe(expected);
  });

  it('reads several Prefer lines', () => {
    expect(prefersGateway(['wait=1', 'gateway'])).toBe(true);
    expect(prefersGateway(undefined)).toBe(false);
  });
});

describe('bearerSecret', () => {
  it.each([
    ['Bearer sk_live_abc', 'sk_live_abc'],
    ['bearer sk_live_abc ', 'sk_live_abc'],
    ['BEARER  sk_live_abc', 'sk_live_abc'],
    ['Basic dXNlcjpwYXNz', undefined],
    ['Bearer', undefined],
    ['Bearer ', ''],
    [undefined, undefined],
  ])('%j → %j', (header, expected) => {
    expect(bearerSecret(header)).toBe(expected);
  });
});
