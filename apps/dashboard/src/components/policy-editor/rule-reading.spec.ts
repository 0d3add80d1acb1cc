import { describe, expect, it } from 'vitest';
import { ruleReading } from './rule-reading';

describe('ruleReading', () => {
  it('reads a token bucket as a burst, then a rate', () => {
    expect(ruleReading({ algorithm: 'TOKEN_BUCKET', capacity: 5, refillPerSecond: 1 })).toBe(
      '5 at once, then 1 per second',
    );
    expect(ruleReading({ algorithm: 'TOKEN_BUCKET', capacity: 100, refillPerSecond: 0.5 })).toBe(
      '100 at once, then 1 every 2 seconds',
    );
    expect(ruleReading({ algorithm: 'TOKEN_BUCKET', capacity: 10, refillPerSecond: 2.5 })).toBe(
      '10 at once, then 2.5 per second',
    );
  });

  it('reads a leaky bucket as a queue and its leak', () => {
    expect(ruleReading({ algorithm: 'LEAKY_BUCKET', capacity: 10, leakPerSecond: 2 })).toBe(
      'queues up to 10, leaving at 2 per second',
    );
  });

  it('reads a fixed window per its length, or per calendar unit in its time zone', () => {
    expect(ruleReading({ algorithm: 'FIXED_WINDOW', limit: 1000, windowMs: 86_400_000 })).toBe(
      '1,000 per day',
    );
    expect(ruleReading({ algorithm: 'FIXED_WINDOW', limit: 30, windowMs: 300_000 })).toBe(
      '30 per 5 minutes',
    );
    expect(
      ruleReading({
        algorithm: 'FIXED_WINDOW',
        limit: 1000,
        calendar: { unit: 'DAY', timeZone: 'Europe/Paris' },
      }),
    ).toBe('1,000 per calendar day (Europe/Paris)');
    expect(
      ruleReading({
        algorithm: 'FIXED_WINDOW',
        limit: 5,
        calendar: { unit: 'MONTH', timeZone: 'UTC' },
      }),
    ).toBe('5 per calendar month (UTC)');
  });

  it('reads both sliding windows as any span of their length', () => {
    expect(ruleReading({ algorithm: 'SLIDING_WINDOW_LOG', limit: 100, windowMs: 60_000 })).toBe(
      '100 in any 1 minute',
    );
    expect(
      ruleReading({ algorithm: 'SLIDING_WINDOW_COUNTER', limit: 100, windowMs: 7_200_000 }),
    ).toBe('100 in any 2 hours');
  });

  it('reads GCRA as an even rate with its burst, the limit when none is set', () => {
    expect(ruleReading({ algorithm: 'GCRA', limit: 10, periodMs: 1000, burst: 3 })).toBe(
      '10 per second, spaced evenly, up to 3 at once',
    );
    expect(ruleReading({ algorithm: 'GCRA', limit: 60, periodMs: 60_000, burst: null })).toBe(
      '60 per minute, spaced evenly, up to 60 at once',
    );
  });

  it('reads concurrency as leases held at once', () => {
    expect(ruleReading({ algorithm: 'CONCURRENCY', limit: 10, leaseTtlMs: 60_000 })).toBe(
      '10 at once, each held up to 1 minute',
    );
  });

  it('reads nothing while a value it needs is missing or not positive', () => {
    expect(ruleReading({ algorithm: 'TOKEN_BUCKET', capacity: 5 })).toBeNull();
    expect(ruleReading({ algorithm: 'LEAKY_BUCKET', capacity: 0, leakPerSecond: 1 })).toBeNull();
    expect(ruleReading({ algorithm: 'FIXED_WINDOW', limit: 5 })).toBeNull();
    expect(
      ruleReading({ algorithm: 'FIXED_WINDOW', limit: 5, calendar: { unit: 'DAY', timeZone: '' } }),
    ).toBeNull();
    expect(ruleReading({ algorithm: 'SLIDING_WINDOW_LOG', windowMs: 1000 })).toBeNull();
    expect(ruleReading({ algorithm: 'GCRA', limit: 5 })).toBeNull();
    expect(ruleReading({ algorithm: 'CONCURRENCY', limit: 5, leaseTtlMs: null })).toBeNull();
  });
});
