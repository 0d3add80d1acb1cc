import { describe, expect, it } from 'vitest';
import { replaySpend } from './spend-replay';

// An identifier's spend per minute replayed through a rule's reference model, each minute spread
// over its seconds: what the try-in-shadow estimate counts.

const MINUTE = 29_000_000; // an epoch minute: fixed windows of a minute start on it

describe('replaySpend', () => {
  it('denies what a minute window would: the spend beyond its limit', () => {
    const perMinute = { algorithm: 'fixed_window', limit: 100, windowMs: 60_000 } as const;

    expect(replaySpend(perMinute, MINUTE, [150])).toEqual({ exceeded: true, deniedCost: 50 });
    // each minute its own window
    expect(replaySpend(perMinute, MINUTE, [80, 80, 100])).toEqual({
      exceeded: false,
      deniedCost: 0,
    });
  });

  it('carries a window longer than a minute across minutes', () => {
    const sliding = { algorithm: 'sliding_window_log', limit: 100, windowMs: 120_000 } as const;

    const replay = replaySpend(sliding, MINUTE, [0, 80, 80]);

    expect(replay.exceeded).toBe(true);
    expect(replay.deniedCost).toBeGreaterThan(0);
    expect(replay.deniedCost).toBeLessThanOrEqual(60);
  });

  it('lets a bucket refill: a steady spend at its rate passes, twice the rate does not', () => {
    const bucket = { algorithm: 'token_bucket', capacity: 10, refillPerSecond: 1 } as const;

    expect(replaySpend(bucket, MINUTE, [60, 60, 60]).exceeded).toBe(false);
    const twice = replaySpend(bucket, MINUTE, [120]);
    expect(twice.exceeded).toBe(true);
    // 120 asked, at most 10 + 60 refilled could pass
    expect(twice.deniedCost).toBeGreaterThanOrEqual(50);
  });

  it('replays nothing for minutes without spend', () => {
    const bucket = { algorithm: 'token_bucket', capacity: 1, refillPerSecond: 1 } as const;

    expect(replaySpend(bucket, MINUTE, [0, 0])).toEqual({ exceeded: false, deniedCost: 0 });
  });
});
