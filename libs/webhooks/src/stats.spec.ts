import { describe, expect, it } from 'vitest';
import { drainEstimateMs } from './stats';

describe('drainEstimateMs', () => {
  const now = 1_000_000;

  it('is the queue over the leak rate, after the pause', () => {
    expect(drainEstimateMs({ depth: 10, pausedUntil: null }, 2, now)).toBe(5000);
    expect(drainEstimateMs({ depth: 10, pausedUntil: now + 30_000 }, 2, now)).toBe(35_000);
    // a pause already over adds nothing
    expect(drainEstimateMs({ depth: 10, pausedUntil: now - 1 }, 2, now)).toBe(5000);
  });

  it('counts a replay after what already waits', () => {
    expect(drainEstimateMs({ depth: 4, pausedUntil: null }, 0.5, now, 6)).toBe(20_000);
  });

  it('is 0 for an empty queue, paused or not', () => {
    expect(drainEstimateMs({ depth: 0, pausedUntil: now + 30_000 }, 1, now)).toBe(0);
  });
});
