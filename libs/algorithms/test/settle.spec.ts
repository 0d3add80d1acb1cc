import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPrepared,
  identifierHash,
  prepareRuleSet,
  ruleSetKeys,
  settleReservation,
  type PreparedRuleSet,
  type RuleSpec,
  type SettledRule,
} from '../src/index';
import { reservationKey } from '../src/rule-set';
import { checkExpiryAndPersist, serverMs, snapshot, unique } from './support';

/** A whole ms, 17 s into a minute: windows of 60 s end 43 s later. */
const NOW = 1_800_000_017_000;
const DAY = 86_400_000;
const TTL = DAY;

/** Capacity 10 each; buckets and GCRA move one unit per 10 s, windows last a minute or a day. */
const cases: { label: string; rule: RuleSpec; windowMs?: number }[] = [
  {
    label: 'token bucket',
    rule: { algorithm: 'token_bucket', capacity: 10, refillPerSecond: 0.1 },
  },
  { label: 'leaky bucket', rule: { algorithm: 'leaky_bucket', capacity: 10, leakPerSecond: 0.1 } },
  { label: 'GCRA', rule: { algorithm: 'gcra', limit: 10, periodMs: 100_000 } },
  {
    label: 'fixed window',
    rule: { algorithm: 'fixed_window', limit: 10, windowMs: 60_000 },
    windowMs: 60_000,
  },
  {
    label: 'fixed window (calendar day)',
    rule: {
      algorithm: 'fixed_window',
      limit: 10,
      calendar: { unit: 'day', timeZone: 'Asia/Tokyo' },
    },
    windowMs: DAY,
  },
  {
    label: 'sliding window log',
    rule: { algorithm: 'sliding_window_log', limit: 10, windowMs: 60_000 },
    windowMs: 60_000,
  },
  {
    label: 'sliding window counter',
    rule: { algorithm: 'sliding_window_counter', limit: 10, windowMs: 60_000 },
    windowMs: 60_000,
  },
];

describe('reserve -> settle, per algorithm (real Redis, injected clock)', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg-settle');
  });
  afterAll(() => t.cleanup());

  for (const { label, rule, windowMs } of cases) {
    describe(label, () => {
      let set: PreparedRuleSet;
      let identifier: string;
      beforeAll(() => {
        set = prepareRuleSet({ prefix: t.prefix, scope: 'tnt.pol', rules: [{ name: 'r', rule }] });
      });
      const fresh = () => (identifier = unique('who'));
      const keys = () => ruleSetKeys(set, identifier);
      const check = (cost: number, now: number, reserve = false) =>
        checkPrepared(t.redis, set, identifier, cost, {
          now,
          ...(reserve && { reservation: { ttlMs: TTL } }),
        });
      const settle = async (nonce: string, actual: number, now: number): Promise<SettledRule> => {
        const result = await settleReservation(t.redis, set, identifier, nonce, actual, { now });
        if (!result.found || !result.rules[0]) throw new Error('expected a settled rule');
        return result.rules[0];
      };
      const reserve = async (cost: number) => {
        const decision = await check(cost, NOW, true);
        expect(decision.allowed).toBe(true);
        return decision.reservation!.nonce;
      };

      it('an overrun is charged past the limit: debt, denied until repaid, never forgiven by expiry', async () => {
        fresh();
        const nonce = await reserve(5);
        const beforeMs = await serverMs(t.redis);
        const after = await settle(nonce, 25, NOW);
        expect(after).toMatchObject({ charged: 20, remaining: -15, allowed: false });
        // the keys live until the rule is back to full / empty, debt included
        await checkExpiryAndPersist(t.redis, keys(), after.resetAt - NOW, beforeMs);
        // even a peek is denied while in debt
        expect((await check(0, NOW)).allowed).toBe(false);
        const denied = await check(1, NOW);
        expect(denied.allowed).toBe(false);
        expect(denied.retryAfter).toBeGreaterThan(0);
        expect((await check(1, NOW + denied.retryAfter - 1)).allowed).toBe(false);
        expect((await check(1, NOW + denied.retryAfter)).allowed).toBe(true);
      });

      it('a refund goes back while the charge is current, and a second settle changes nothing', async () => {
        fresh();
        const nonce = await reserve(8);
        const after = await settle(nonce, 2, NOW + 1000);
        expect(after).toMatchObject({ charged: -6, remaining: 8, allowed: true });
        const snap = await snapshot(t.redis, keys());
        const again = await settleReservation(t.redis, set, identifier, nonce, 9, {
          now: NOW + 1000,
        });
        expect(again).toMatchObject({
          found: true,
          alreadySettled: true,
          estimate: 8,
          actualCost: 2,
          rules: [{ name: 'r', charged: 0, remaining: 8 }],
        });
        expect(await snapshot(t.redis, keys())).toEqual(snap);
        expect(await check(8, NOW + 1000)).toMatchObject({
          allowed: true,
          rules: [{ remaining: 0 }],
        });
      });

      if (windowMs !== undefined) {
        it('a refund after the window rolled over has no effect; an overrun counts in the current window', async () => {
          fresh();
          const refunded = await reserve(8);
          const overrun = await reserve(1);
          const later = NOW + windowMs;
          const snap = await snapshot(t.redis, keys());
          expect(await settle(refunded, 0, later)).toMatchObject({ charged: 0 });
          expect(await snapshot(t.redis, keys())).toEqual(snap);
          const after = await settle(overrun, 21, later);
          expect(after.charged).toBe(20);
          expect(after.remaining).toBeLessThanOrEqual(-10);
          expect((await check(1, later)).allowed).toBe(false);
        });
      } else {
        it('a refund lifts the rule at most to full (bucket) / to now (schedule); an overrun later still counts', async () => {
          fresh();
          const refunded = await reserve(8);
          // 70 s later 7 units are back: 9 of 10, so only 1 of the 8 refunded fits
          const later = NOW + 70_000;
          expect(await settle(refunded, 0, later)).toMatchObject({ charged: -1, remaining: 10 });
          const overrun = (await check(5, later, true)).reservation!.nonce;
          const after = await settle(overrun, 26, later + 1);
          expect(after).toMatchObject({ charged: 21, allowed: false });
          expect(after.remaining).toBeLessThanOrEqual(-16);
        });
      }
    });
  }

  it('an unsettled reservation expires after its TTL: the estimate stands and a settle then finds nothing', async () => {
    const ttlMs = 1000;
    const runs = await Promise.all(
      cases.map(async ({ rule }) => {
        const set = prepareRuleSet({
          prefix: t.prefix,
          scope: 'tnt.exp',
          rules: [{ name: 'r', rule }],
        });
        const identifier = unique('exp');
        const beforeMs = await serverMs(t.redis);
        const decision = await checkPrepared(t.redis, set, identifier, 4, {
          now: NOW,
          reservation: { ttlMs },
        });
        const record = reservationKey(set, identifierHash(identifier), decision.reservation!.nonce);
        const expiry = Number(await t.redis.call('PEXPIRETIME', record));
        expect(expiry).toBeGreaterThanOrEqual(beforeMs + ttlMs);
        expect(expiry).toBeLessThanOrEqual((await serverMs(t.redis)) + ttlMs);
        expect(decision.reservation!.expiresAt).toBe(NOW + ttlMs);
        return { set, identifier, nonce: decision.reservation!.nonce, record };
      }),
    );
    // Redis expires the records on its own clock
    for (let tries = 0; (await t.redis.exists(...runs.map((r) => r.record))) > 0; tries++) {
      if (tries > 600) throw new Error('the reservation records did not expire in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const { set, identifier, nonce } of runs) {
      const result = await settleReservation(t.redis, set, identifier, nonce, 0, { now: NOW });
      expect(result).toEqual({ found: false });
      // nothing was refunded: the estimate (4 of 10) is still charged
      const peek = await checkPrepared(t.redis, set, identifier, 0, { now: NOW });
      expect(peek.rules[0]?.remaining).toBe(6);
    }
  });

  it('settles only the rules the record charged, each with the parameters it was charged under', async () => {
    const charged = prepareRuleSet({
      prefix: t.prefix,
      scope: 'tnt.chg',
      rules: [
        { name: 'kept', rule: { algorithm: 'fixed_window', limit: 100, windowMs: 60_000 } },
        { name: 'renamed', rule: { algorithm: 'token_bucket', capacity: 100, refillPerSecond: 1 } },
        { name: 'retyped', rule: { algorithm: 'gcra', limit: 100, periodMs: 60_000 } },
      ],
    });
    // the policy as the settle sees it: `kept` with another limit (an override, a new
    // version), `renamed` gone, `retyped` now a window, and a rule added since the check
    const current = prepareRuleSet({
      prefix: t.prefix,
      scope: 'tnt.chg',
      rules: [
        { name: 'kept', rule: { algorithm: 'fixed_window', limit: 10, windowMs: 60_000 } },
        { name: 'retyped', rule: { algorithm: 'fixed_window', limit: 100, windowMs: 60_000 } },
        { name: 'added', rule: { algorithm: 'sliding_window_log', limit: 100, windowMs: 60_000 } },
      ],
    });
    const identifier = unique('chg');
    const decision = await checkPrepared(t.redis, charged, identifier, 30, {
      now: NOW,
      reservation: { ttlMs: TTL },
    });
    expect(decision.reservation?.rules).toEqual(['kept', 'renamed', 'retyped']);
    const untouched = ruleSetKeys(charged, identifier).filter(
      (key) => !key.endsWith(':kept.fw-60000'),
    );
    const snap = await snapshot(t.redis, untouched);
    const result = await settleReservation(
      t.redis,
      current,
      { idHash: identifierHash(identifier) },
      decision.reservation!.nonce,
      10,
      { now: NOW },
    );
    expect(result).toMatchObject({ found: true, estimate: 30, actualCost: 10 });
    // limit 100 as charged, not the 10 of the current set
    expect(result.found && result.rules).toEqual([
      expect.objectContaining({ name: 'kept', charged: -20, limit: 100, remaining: 90 }),
    ]);
    expect(await snapshot(t.redis, untouched)).toEqual(snap);
    const added = ruleSetKeys(current, identifier).filter((key) => key.includes(':added'));
    expect(await t.redis.exists(...added)).toBe(0);
  });
});
