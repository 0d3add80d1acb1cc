import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARRIVAL_PATTERNS,
  arrivalOffsets,
  compareAlgorithms,
  comparisonRules,
  replayInRedis,
  replayModel,
  ruleKey,
} from '../src/index';

// The algorithm comparison replays arrival patterns through each algorithm's Lua with an injected
// clock: the Lua must admit exactly what the reference model admits, and the figures must show
// the textbook difference at a window edge.

const MINUTE = 60_000;
/** A minute boundary, as the replay starts on one. */
const START = 1_800_000_000_000 - (1_800_000_000_000 % MINUTE);

describe('the algorithm comparison', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());

  for (const pattern of ARRIVAL_PATTERNS) {
    it(`${pattern}: each algorithm's Lua admits what its reference model admits`, async () => {
      const offsets = arrivalOffsets(pattern, 7, 10_000);
      for (const [algorithm, rule] of Object.entries(comparisonRules(7, 10_000))) {
        const key = ruleKey({
          prefix: t.prefix,
          scope: 'cmp',
          identifier: pattern,
          rule: algorithm,
        });
        const lua = await replayInRedis(t.redis, key, rule, START, offsets);
        expect(lua, algorithm).toEqual(replayModel(rule, START, offsets));
      }
    });
  }

  it('around a window edge: a fixed window admits twice its limit within a window, a sliding log exactly its limit', async () => {
    const comparison = await compareAlgorithms(t.redis, {
      pattern: 'boundary_spike',
      limit: 100,
      windowMs: MINUTE,
      keyPrefix: `${t.prefix}compare:`,
      now: START,
    });
    const most = Object.fromEntries(
      comparison.algorithms.map((a) => [a.algorithm, a.mostInAnyWindow / 100]),
    );
    expect(most).toMatchObject({
      fixed_window: 2,
      sliding_window_log: 1,
      sliding_window_counter: 1,
    });
    // the bucket refills 100/60 tokens in the second between the spikes: one whole one
    expect(most['token_bucket']).toBe(1.01);
    expect(comparison.bucketMs).toBe(6000);
    expect(comparison.arrivals).toHaveLength(30);
    expect(comparison.arrivals[9]).toBe(100);
    expect(comparison.arrivals[10]).toBe(100);
    const fixed = comparison.algorithms.find((a) => a.algorithm === 'fixed_window')!;
    expect(fixed.perBucket.slice(9, 11)).toEqual([100, 100]);
    // its scratch keys are gone
    expect(await t.redis.keys(`${t.prefix}compare:*`)).toEqual([]);
  });

  it('steady over the limit: no algorithm admits more than twice its limit in a window', async () => {
    const comparison = await compareAlgorithms(t.redis, {
      pattern: 'steady_over_limit',
      limit: 20,
      windowMs: 10_000,
      keyPrefix: `${t.prefix}compare:`,
      now: START + 1,
    });
    for (const algorithm of comparison.algorithms) {
      expect(algorithm.mostInAnyWindow, algorithm.algorithm).toBeLessThanOrEqual(40);
      expect(algorithm.perBucket.reduce((a, b) => a + b, 0)).toBe(algorithm.admitted);
    }
    expect(comparison.arrivals.reduce((a, b) => a + b, 0)).toBe(120);
  });
});
