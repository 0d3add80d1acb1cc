import { describe, expect, it } from 'vitest';
import { hashSlotPart, identifierHash, ruleKey, ruleStateName, ruleStateTag } from './rule-key';

const parts = { prefix: 'sluice:', scope: 'api', identifier: 'user-42', rule: 'per-minute' };

describe('ruleKey', () => {
  it('is <prefix>{<scope>:<idHash>}:<rule> with a 22-character SHA-256 prefix (base64url)', () => {
    expect(ruleKey(parts)).toBe(`sluice:{api:${identifierHash('user-42')}}:per-minute`);
    expect(identifierHash('user-42')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('keeps any identifier bytes out of the key and its hash tag', () => {
    const hostile = ['}{evil}', 'a\nb\r\n', '\u0000', 'x'.repeat(256), '{'.repeat(256)];
    const keys = hostile.map((identifier) => ruleKey({ ...parts, identifier }));
    for (const key of keys) {
      expect(key).toMatch(/^sluice:\{api:[A-Za-z0-9_-]{22}\}:per-minute$/);
      expect(hashSlotPart(key)).toMatch(/^api:[A-Za-z0-9_-]{22}$/);
    }
    expect(new Set(keys).size).toBe(hostile.length);
  });

  it('hashes bytes: a string and its UTF-8 bytes give the same key', () => {
    expect(ruleKey({ ...parts, identifier: 'é' })).toBe(
      ruleKey({ ...parts, identifier: new Uint8Array([0xc3, 0xa9]) }),
    );
  });

  it('gives every rule of one scope and identifier the same hash slot', () => {
    const a = ruleKey({ ...parts, rule: 'per-second' });
    const b = ruleKey({ ...parts, rule: 'per-day' });
    expect(hashSlotPart(a)).toBe(hashSlotPart(b));
    expect(hashSlotPart(ruleKey({ ...parts, identifier: 'other' }))).not.toBe(hashSlotPart(a));
  });

  it('takes a scope qualified by its owner, so equal names of two owners never share a key', () => {
    const a = ruleKey({ ...parts, scope: 'tnt_a.pol_1' });
    const b = ruleKey({ ...parts, scope: 'tnt_b.pol_1' });
    expect(a).toBe(`sluice:{tnt_a.pol_1:${identifierHash('user-42')}}:per-minute`);
    expect(hashSlotPart(a)).not.toBe(hashSlotPart(b));
    const longest = ruleKey({ ...parts, scope: `${'t'.repeat(64)}.${'p'.repeat(64)}` });
    expect(hashSlotPart(longest)).toHaveLength(64 + 1 + 64 + 1 + 22);
  });

  it('hashSlotPart follows Redis Cluster: first non-empty {...}, else the whole key', () => {
    expect(hashSlotPart('a{b}c{d}')).toBe('b');
    expect(hashSlotPart('a{}b{c}')).toBe('a{}b{c}');
    expect(hashSlotPart('plain')).toBe('plain');
  });
});

describe('ruleStateTag', () => {
  const minute = { algorithm: 'fixed_window', limit: 10, windowMs: 60_000 } as const;

  it('changes with the algorithm, and with the window of a window algorithm', () => {
    const tags = [
      ruleStateTag({ algorithm: 'token_bucket', capacity: 5, refillPerSecond: 1 }),
      ruleStateTag({ algorithm: 'leaky_bucket', capacity: 5, leakPerSecond: 1 }),
      ruleStateTag({ algorithm: 'gcra', limit: 5, periodMs: 1000 }),
      ruleStateTag({ algorithm: 'concurrency', limit: 5, leaseTtlMs: 1000 }),
      ruleStateTag(minute),
      ruleStateTag({ ...minute, windowMs: 120_000 }),
      ruleStateTag({
        algorithm: 'fixed_window',
        limit: 10,
        calendar: { unit: 'day', timeZone: 'UTC' },
      }),
      ruleStateTag({
        algorithm: 'fixed_window',
        limit: 10,
        calendar: { unit: 'month', timeZone: 'UTC' },
      }),
      ruleStateTag({ algorithm: 'sliding_window_log', limit: 10, windowMs: 60_000 }),
      ruleStateTag({ algorithm: 'sliding_window_counter', limit: 10, windowMs: 60_000 }),
    ];
    expect(new Set(tags).size).toBe(tags.length);
    for (const tag of tags) expect(tag).toMatch(/^[a-z0-9-]+$/);
  });

  it('keeps the tag (and so the counters) when only a limit, capacity or rate changes', () => {
    expect(ruleStateTag({ ...minute, limit: 1_000 })).toBe(ruleStateTag(minute));
    expect(ruleStateTag({ algorithm: 'token_bucket', capacity: 50, refillPerSecond: 9 })).toBe(
      ruleStateTag({ algorithm: 'token_bucket', capacity: 5, refillPerSecond: 1 }),
    );
    expect(ruleStateTag({ algorithm: 'gcra', limit: 9, periodMs: 60_000, burst: 2 })).toBe(
      ruleStateTag({ algorithm: 'gcra', limit: 5, periodMs: 1000 }),
    );
  });

  it('puts the tag after the name with a `.`, which no name holds', () => {
    expect(ruleStateName('per-minute', minute)).toBe('per-minute.fw-60000');
    expect(ruleKey({ ...parts, state: minute })).toBe(
      `sluice:{api:${identifierHash('user-42')}}:per-minute.fw-60000`,
    );
  });
});
