import { describe, expect, it } from 'vitest';
import { arrivalOffsets, comparisonRules } from './arrival-patterns';

describe('arrivalOffsets', () => {
  it('boundary_spike: the limit just before the first edge and the limit just after', () => {
    const offsets = arrivalOffsets('boundary_spike', 3, 60_000);
    expect(offsets).toEqual([59_500, 59_500, 59_500, 60_500, 60_500, 60_500]);
  });

  it('steady_over_limit: twice the limit per window, evenly, over three windows', () => {
    const offsets = arrivalOffsets('steady_over_limit', 5, 10_000);
    expect(offsets).toHaveLength(30);
    expect(offsets.slice(0, 3)).toEqual([0, 1000, 2000]);
    expect(offsets.at(-1)).toBe(29_000);
  });

  it('bursts: the limit at once every half window', () => {
    const offsets = arrivalOffsets('bursts', 2, 10_000);
    expect(offsets).toEqual([
      0, 0, 5000, 5000, 10_000, 10_000, 15_000, 15_000, 20_000, 20_000, 25_000, 25_000,
    ]);
  });
});

describe('comparisonRules', () => {
  it('sets every rate algorithm to the limit per window', () => {
    expect(comparisonRules(10, 20_000)).toMatchObject({
      token_bucket: { capacity: 10, refillPerSecond: 0.5 },
      leaky_bucket: { capacity: 10, leakPerSecond: 0.5 },
      fixed_window: { limit: 10, windowMs: 20_000 },
      sliding_window_log: { limit: 10, windowMs: 20_000 },
      sliding_window_counter: { limit: 10, windowMs: 20_000 },
      gcra: { limit: 10, periodMs: 20_000 },
    });
  });
});
