import { describe, expect, it } from 'vitest';
import { runsOutAt } from './burn-down';

const HOUR = 3_600_000;
const now = 1_000_000_000_000;

describe('runsOutAt', () => {
  const daily = {
    algorithm: 'fixed_window' as const,
    remaining: 600,
    resetAt: now + 10 * HOUR,
    quota: 1000,
    windowMs: 24 * HOUR,
  };

  it('tells when a window runs out at the current rate, if before it resets', () => {
    // 100 an hour: the 600 left last 6 hours, the window ends in 10
    expect(runsOutAt(daily, 100 / HOUR, now)).toBe(now + 6 * HOUR);
    // 50 an hour: 12 hours, after the reset
    expect(runsOutAt(daily, 50 / HOUR, now)).toBeNull();
    expect(runsOutAt({ ...daily, remaining: 0 }, 0, now)).toBe(now);
    expect(runsOutAt(daily, 0, now)).toBeNull();
  });

  it('counts a bucket’s refill against the rate', () => {
    // 1,000 an hour back, spent at 1,200 an hour: 200 an hour net, 600 left last 3 hours
    const bucket = { ...daily, algorithm: 'token_bucket' as const, quota: 1000, windowMs: HOUR };
    expect(runsOutAt(bucket, 1200 / HOUR, now)).toBe(now + 3 * HOUR);
    expect(runsOutAt(bucket, 900 / HOUR, now)).toBeNull();
  });

  it('tells nothing of quotas under an hour, nor of concurrency', () => {
    expect(runsOutAt({ ...daily, windowMs: 60_000 }, 1, now)).toBeNull();
    expect(runsOutAt({ ...daily, algorithm: 'concurrency' }, 1, now)).toBeNull();
    // a calendar day, whatever its length
    expect(runsOutAt({ ...daily, windowMs: 1000, calendarUnit: 'day' }, 100 / HOUR, now)).toBe(
      now + 6 * HOUR,
    );
  });
});
