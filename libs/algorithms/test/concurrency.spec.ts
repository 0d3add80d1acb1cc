import { createTestRedis, type TestRedis } from '@sluice/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPrepared,
  checkRule,
  checkRules,
  newNonce,
  prepareRuleSet,
  registerScripts,
  releaseLease,
  ruleKey,
  ruleSetKeys,
  type AnyRuleSpec,
} from '../src/index';

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
const cases: { rule: AnyRuleSpec; recoverMs: number }[] = [
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
  // leases of an hour: every round starts once the previous round's have expired
  {
    rule: { algorithm: 'concurrency', limit: LIMIT, leaseTtlMs: 3_600_000 },
    recoverMs: 3_600_000,
  },
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
        const decisions = await race((redis) =>
          checkRule(redis, key, rule, { now, lease: newNonce() }),
        );
        const admitted = decisions.filter((d) => d.allowed);
        expect(admitted).toHaveLength(LIMIT);
        if (rule.algorithm === 'concurrency') {
          // exactly LIMIT leases in force, none of them lost or doubled
          expect(await t.redis.zcount(key, `(${now * 1000}`, '+inf')).toBe(LIMIT);
        }
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

  it('composite: concurrency and a token bucket, each rule charged only with the other', async () => {
    const set = prepareRuleSet({
      prefix: t.prefix,
      scope: 'race.pol',
      rules: [
        {
          name: 'inflight',
          rule: { algorithm: 'concurrency', limit: LIMIT, leaseTtlMs: 3_600_000 },
        },
        {
          name: 'tokens',
          rule: { algorithm: 'token_bucket', capacity: 500, refillPerSecond: 0.01 },
        },
      ],
    });
    const decisions = await race((redis) =>
      checkPrepared(redis, set, 'both', 3, { now: START_MS, reservation: { ttlMs: 60_000 } }),
    );
    const admitted = decisions.filter((d) => d.allowed);
    expect(admitted).toHaveLength(LIMIT);
    expect(admitted.every((d) => d.lease && d.reservation)).toBe(true);
    expect(decisions.filter((d) => !d.allowed).some((d) => d.lease || d.reservation)).toBe(false);
    const [inflight, tokens] = ruleSetKeys(set, 'both');
    expect(await t.redis.zcard(inflight!)).toBe(LIMIT);
    expect(Number(await t.redis.hget(tokens!, 'tokens'))).toBe(500 - 3 * LIMIT);
  });

  it('leases on the Redis clock: callers taking, holding and releasing never exceed the limit in flight', async () => {
    const limit = 5;
    const set = prepareRuleSet({
      prefix: t.prefix,
      scope: 'race.live',
      rules: [{ name: 'inflight', rule: { algorithm: 'concurrency', limit, leaseTtlMs: 60_000 } }],
    });
    const [key] = ruleSetKeys(set, 'live');
    let inFlight = 0;
    let most = 0;
    let taken = 0;
    // a denied caller tries again once a lease was released since it asked, not at once: it
    // was denied because `limit` leases were held, and each of them is released later, so the
    // retries meet freed slots however slow the machine
    let released = 0;
    let onRelease: (() => void)[] = [];
    const releasedSince = async (seen: number) => {
      while (released <= seen) await new Promise<void>((resolve) => onRelease.push(resolve));
    };
    await race(async (redis) => {
      for (let attempt = 0; attempt < 4; attempt++) {
        const seen = released;
        const decision = await checkPrepared(redis, set, 'live', 1);
        if (!decision.allowed) {
          expect(decision.retryAfter).toBeGreaterThan(0);
          await releasedSince(seen);
          continue;
        }
        // a lease held here is held in Redis (taken before the reply, released after)
        inFlight += 1;
        taken += 1;
        most = Math.max(most, inFlight);
        expect(await redis.zcard(key!)).toBeLessThanOrEqual(limit);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight -= 1;
        expect(await releaseLease(redis, set, 'live', decision.lease!.nonce)).toEqual({
          released: true,
        });
        released += 1;
        const waiting = onRelease;
        onRelease = [];
        for (const wake of waiting) wake();
      }
    });
    expect(most).toBeLessThanOrEqual(limit);
    expect(most).toBeGreaterThan(1);
    // released slots were taken again
    expect(taken).toBeGreaterThan(limit);
    expect(await t.redis.zcard(key!)).toBe(0);
  });
});
