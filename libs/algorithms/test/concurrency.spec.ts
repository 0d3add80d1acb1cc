import { createTestRedis, type TestRedis } from '@sluice/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRule, checkRules, registerScripts, ruleKey, type RuleSpec } from '../src/index';

const CALLERS = 200;
const ROUNDS = 3;
const LIMIT = 50;
/** Start of a minute, so window algorithms begin each round in a fresh window. */
const START_MS = 1_800_000_000_000 - (1_800_000_000_000 % 3_600_000);

/**
 * Each rule admits LIMIT at one instant, and is whole again `recoverMs` later. Rates are slow on
 * purpose: key TTLs run on Redis' real clock while the rounds use a frozen injected one, so a TTL
 * shorter than a round (a loaded CI machine) would hand capacity back mid-round.
 */
const cases: { rule: RuleSpec; recoverMs: number }[] = [
  {
    rule: { algorithm: 'token_bucket', capacity: LIMIT, refillPerSecond: 0.01 },
    recoverMs: 5_000_000,
  },
  {
    rule: { algorithm: 'leaky_bucket', capacity: LIMIT, leakPerSecond: 0.01 },
    recoverMs: 5_000_000,
  },
  { rule: { algorithm: 'fixed_window', limit: LIMIT, windowMs: 60_000 }, recoverMs: 60_000 },
  { rule: { algorithm: 'sliding_window_log', limit: LIMIT, windowMs: 60_000 }, recoverMs: 60_000 },
  {
    rule: { algorithm: 'sliding_window_counter', limit: LIMIT, windowMs: 60_000 },
    recoverMs: 120_000,
  },
  { rule: { algorithm: 'gcra', limit: LIMIT, periodMs: 3_600_000 }, recoverMs: 3_600_000 },
];

describe('200 concurrent callers on one key admit exactly the limit', () => {
  let t: TestRedis;
  let connections: Redis[];
  beforeAll(async () => {
    t = createTestRedis('alg');
    connections = Array.from({ length: 8 }, () => t.connect());
    // defined (and the scripts loaded) before the race, so every caller is a bare EVALSHA
    await Promise.all(connections.map((c) => (registerScripts(c), c.ping())));
  });
  afterAll(() => t.cleanup());

  const race = <T>(call: (redis: Redis) => Promise<T>): Promise<T[]> =>
    Promise.all(
      Array.from({ length: CALLERS }, (_, i) => call(connections[i % connections.length]!)),
    );

  for (const { rule, recoverMs } of cases) {
    it(`${rule.algorithm}: ${LIMIT} of ${CALLERS}, ${ROUNDS} rounds`, async () => {
      const key = ruleKey({
        prefix: t.prefix,
        scope: 'race',
        identifier: rule.algorithm,
        rule: 'r',
      });
      for (let round = 0; round < ROUNDS; round++) {
        // frozen clock: nothing refills during a round
        const now = START_MS + round * recoverMs;
        const decisions = await race((redis) => checkRule(redis, key, rule, { now }));
        const admitted = decisions.filter((d) => d.allowed);
        expect(admitted).toHaveLength(LIMIT);
        expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfter > 0)).toBe(true);
        if (rule.algorithm === 'leaky_bucket') {
          // one queue: each admitted request waits one more interval (100 s) than the previous
          const delays = admitted.map((d) => d.delayMs).sort((a, b) => a - b);
          expect(delays).toEqual(Array.from({ length: LIMIT }, (_, i) => i * 100_000));
        }
      }
    });
  }

  it('composite: the tightest live rule decides and the others are charged only with it', async () => {
    const bucket = ruleKey({
      prefix: t.prefix,
      scope: 'race',
      identifier: 'multi',
      rule: 'bucket',
    });
    const window = ruleKey({
      prefix: t.prefix,
      scope: 'race',
      identifier: 'multi',
      rule: 'window',
    });
    for (let round = 0; round < ROUNDS; round++) {
      // 600 s apart: the bucket (0.1 token/s) is full again and the window is a new one
      const now = START_MS + round * 600_000;
      const decisions = await race((redis) =>
        checkRules(
          redis,
          [
            {
              key: bucket,
              rule: { algorithm: 'token_bucket', capacity: 500, refillPerSecond: 0.1 },
            },
            { key: window, rule: { algorithm: 'fixed_window', limit: LIMIT, windowMs: 60_000 } },
          ],
          { now },
        ),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(LIMIT);
      expect(Number(await t.redis.hget(bucket, 'tokens'))).toBe(500 - LIMIT);
    }
  });
});
