import { describe, expect, it } from 'vitest';
import { keyStatus } from './key-status';

describe('keyStatus', () => {
  const now = new Date('2026-05-01T12:00:00Z');

  it('is active without an expiry or before it', () => {
    expect(keyStatus({ expiresAt: null, revokedAt: null }, now)).toBe('active');
    expect(keyStatus({ expiresAt: '2026-05-01T12:00:01Z' }, now)).toBe('active');
  });

  it('is expired from its expiry on', () => {
    expect(keyStatus({ expiresAt: '2026-05-01T12:00:00Z' }, now)).toBe('expired');
  });

  it('is revoked once revoked, expired or not', () => {
    expect(keyStatus({ revokedAt: '2026-04-01T00:00:00Z' }, now)).toBe('revoked');
    expect(
      keyStatus({ revokedAt: '2026-04-01T00:00:00Z', expiresAt: '2026-04-02T00:00:00Z' }, now),
    ).toBe('revoked');
  });
});
