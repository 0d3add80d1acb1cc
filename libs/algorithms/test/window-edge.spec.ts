import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRule, ruleKey, type RuleSpec } from '../src/index';

/** 100 requests at 59.5 s into a minute and 100 more at 60.5 s: 200 within one second. */
async function admittedAcrossEdge(t: TestRedis, rule: RuleSpec): Promise<[number, number]> {
  const key = ruleKey({ prefix: t.prefix, scope: 'edge', identifier: rule.algorithm, rule: 'r' });
  const minute = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
  const admitted: [number, number] = [0, 0];
  for (const [i, now] of [minute + 59_500, minute + 60_500].entries()) {
    for (let n = 0; n < 100; n++) {
      if ((await checkRule(t.redis, key, rule, { now })).allowed) admitted[i]! += 1;
    }
  }
  return admitted;
}

describe('100 per minute across a window edge', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());

  it('a fixed window admits all 200 within 2 s: the counter restarts at the edge', async () => {
    const rule = { algorithm: 'fixed_window', limit: 100, windowMs: 60_000 } as const;
    expect(await admittedAcrossEdge(t, rule)).toEqual([100, 100]);
  });

  it('a sliding log admits 100: the first 100 stay in the window until 119.5 s', async () => {
    const rule = { algorithm: 'sliding_window_log', limit: 100, windowMs: 60_000 } as const;
    expect(await admittedAcrossEdge(t, rule)).toEqual([100, 0]);
  });

  it('a sliding counter admits 100: at 60.5 s the estimate is 100 * 59.5/60 = 99.2', async () => {
    const rule = { algorithm: 'sliding_window_counter', limit: 100, windowMs: 60_000 } as const;
    expect(await admittedAcrossEdge(t, rule)).toEqual([100, 0]);
  });
});
