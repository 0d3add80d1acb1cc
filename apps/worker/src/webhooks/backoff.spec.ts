import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs } from './backoff';

describe('retry backoff', () => {
  it('doubles per retry, half fixed and half random, up to the cap', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, 60_000, low))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, 60_000, high))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(retryDelayMs(30, 1000, 60_000, high)).toBe(60_000);
    expect(retryDelayMs(30, 1000, 60_000, low)).toBe(30_000);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-12-03T10:00:00Z');

  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 03 Dec 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 03 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(['5', '9'], now)).toBe(5000);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
