import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRule, RETRY_NEVER, ruleKey, ruleKeys, type RuleSpec } from '../src/index';
import { checkExpiryAndPersist, serverMs, snapshot } from './support';

// Slow rates: the keys' TTLs run on Redis' real clock while the tests inject theirs, so a key must
// not expire between two steps of a test on a loaded machine (one unit takes 100 s or more).
const rules: RuleSpec[] = [
  { algorithm: 'token_bucket', capacity: 5, refillPerSecond: 0.01 },
  { algorithm: 'leaky_bucket', capacity: 5, leakPerSecond: 0.01 },
  { algorithm: 'fixed_window', limit: 5, windowMs: 60_000 },
  { algorithm: 'fixed_window', limit: 5, calendar: { unit: 'month', timeZone: 'Europe/Paris' } },
  { algorithm: 'sliding_window_log', limit: 5, windowMs: 60_000 },
  { algorithm: 'sliding_window_counter', limit: 5, windowMs: 60_000 },
  { algorithm: 'gcra', limit: 5, periodMs: 600_000 },
];
/** A whole ms, 17 s into a minute. */
const NOW = 1_800_000_017_000;

describe('peeks, impossible costs and TTLs', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());

  for (const rule of rules) {
    const label = rule.algorithm + ('calendar' in rule ? ' (calendar)' : '');
    const keyFor = (name: string) =>
      ruleKey({ prefix: t.prefix, scope: 'peek', identifier: label, rule: name });

    it(`${label}: cost 0 on a fresh key reports full capacity and creates nothing`, async () => {
      const key = keyFor('fresh');
      const decision = await checkRule(t.redis, key, rule, { cost: 0, now: NOW });
      expect(decision).toMatchObject({ allowed: true, limit: 5, remaining: 5, retryAfter: 0 });
      expect(await t.redis.exists(...ruleKeys(rule, key))).toBe(0);
    });

    it(`${label}: cost 0 after use reports the same figures and writes nothing`, async () => {
      const key = keyFor('used');
      const used = await checkRule(t.redis, key, rule, { cost: 2, now: NOW });
      expect(used).toMatchObject({ allowed: true, remaining: 3 });
      const before = await snapshot(t.redis, ruleKeys(rule, key));
      const peek = await checkRule(t.redis, key, rule, { cost: 0, now: NOW });
      // a leaky bucket's peek reports the wait behind the queue just joined
      const delayMs = rule.algorithm === 'leaky_bucket' ? used.resetAt - NOW : 0;
      expect(peek).toEqual({ ...used, delayMs });
      expect(await snapshot(t.redis, ruleKeys(rule, key))).toEqual(before);
    });

    it(`${label}: cost above capacity is denied for ever and changes nothing`, async () => {
      const fresh = keyFor('huge-fresh');
      expect(await checkRule(t.redis, fresh, rule, { cost: 6, now: NOW })).toMatchObject({
        allowed: false,
        retryAfter: RETRY_NEVER,
        remaining: 5,
      });
      expect(await t.redis.exists(...ruleKeys(rule, fresh))).toBe(0);

      const key = keyFor('huge-used');
      await checkRule(t.redis, key, rule, { cost: 1, now: NOW });
      const before = await snapshot(t.redis, ruleKeys(rule, key));
      const denied = await checkRule(t.redis, key, rule, { cost: 6, now: NOW });
      expect(denied).toMatchObject({ allowed: false, retryAfter: RETRY_NEVER, remaining: 4 });
      expect(await snapshot(t.redis, ruleKeys(rule, key))).toEqual(before);
    });

    it(`${label}: keys live exactly until the rule is back to full / empty (resetAt)`, async () => {
      const key = keyFor('ttl');
      for (const cost of [1, 3]) {
        const beforeMs = await serverMs(t.redis);
        const decision = await checkRule(t.redis, key, rule, { cost, now: NOW });
        expect(decision.allowed).toBe(true);
        expect(decision.resetAt).toBeGreaterThan(NOW);
        // NOW is a whole ms, so the TTL is exactly resetAt - NOW
        await checkExpiryAndPersist(t.redis, ruleKeys(rule, key), decision.resetAt - NOW, beforeMs);
      }
    });
  }
});
