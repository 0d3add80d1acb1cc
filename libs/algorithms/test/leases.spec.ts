import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPrepared,
  concurrency,
  identifierHash,
  parseLeaseId,
  prepareRuleSet,
  releaseLease,
  releaseLeaseKeys,
  ruleKey,
  ruleSetKeys,
  type RuleSetRule,
} from '../src/index';
import { checkExpiryAndPersist, serverMs, snapshot, unique } from './support';

const NOW = 1_800_000_017_000;
const inflight = (limit: number, leaseTtlMs = 60_000): RuleSetRule => ({
  name: 'inflight',
  rule: { algorithm: 'concurrency', limit, leaseTtlMs },
});

describe('concurrency leases (real Redis, injected clock)', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg-lease');
  });
  afterAll(() => t.cleanup());
  const setOf = (...rules: RuleSetRule[]) =>
    prepareRuleSet({ prefix: t.prefix, scope: 'tnt.lease', rules });

  it('takes one slot per check whatever the cost; figures count the leases in flight', async () => {
    const set = setOf(inflight(2, 10_000));
    const who = unique('slots');
    const beforeMs = await serverMs(t.redis);
    const first = await checkPrepared(t.redis, set, who, 500, { now: NOW });
    expect(first).toMatchObject({
      allowed: true,
      rules: [{ limit: 2, remaining: 1, resetAt: NOW + 10_000, retryAfter: 0 }],
      lease: { expiresAt: NOW + 10_000 },
    });
    // the key lives until its latest lease expires
    const [key] = ruleSetKeys(set, who);
    await checkExpiryAndPersist(t.redis, [key!], 10_000, beforeMs);
    const second = await checkPrepared(t.redis, set, who, 1, { now: NOW + 4000 });
    // resetAt is the earliest lease expiry: when a slot frees by itself at the latest
    expect(second).toMatchObject({
      allowed: true,
      rules: [{ remaining: 0, resetAt: NOW + 10_000 }],
    });
    const full = await checkPrepared(t.redis, set, who, 1, { now: NOW + 5000 });
    expect(full).toMatchObject({ allowed: false, retryAfter: 5000, rules: [{ remaining: 0 }] });
    expect(full.lease).toBeUndefined();
    expect((await checkPrepared(t.redis, set, who, 1, { now: NOW + 10_000 })).allowed).toBe(true);
  });

  it('a lease id names the set scope, the identifier hash and the nonce', async () => {
    const set = setOf(inflight(1));
    const who = unique('id');
    const { lease } = await checkPrepared(t.redis, set, who, 1, { now: NOW });
    expect(parseLeaseId(lease!.id)).toEqual({
      scope: 'tnt.lease',
      owner: 'tnt',
      name: 'lease',
      idHash: identifierHash(who),
      nonce: lease!.nonce,
    });
  });

  it('peeks, dry runs and denials take no lease', async () => {
    const set = setOf(inflight(1));
    const who = unique('none');
    const [key] = ruleSetKeys(set, who);
    expect((await checkPrepared(t.redis, set, who, 0, { now: NOW })).lease).toBeUndefined();
    const dry = await checkPrepared(t.redis, set, who, 1, { now: NOW, dryRun: true });
    expect(dry).toMatchObject({ allowed: true, rules: [{ remaining: 0 }] });
    expect(dry.lease).toBeUndefined();
    expect(await t.redis.exists(key!)).toBe(0);
    await checkPrepared(t.redis, set, who, 1, { now: NOW });
    const before = await snapshot(t.redis, [key!]);
    expect((await checkPrepared(t.redis, set, who, 1, { now: NOW })).lease).toBeUndefined();
    expect(await snapshot(t.redis, [key!])).toEqual(before);
  });

  it('release frees the slot once; a second release or one after expiry is harmless', async () => {
    const set = setOf(inflight(2, 60_000));
    const who = unique('release');
    const ref = { idHash: identifierHash(who) };
    const early = (await checkPrepared(t.redis, set, who, 1, { now: NOW })).lease!;
    const late = (await checkPrepared(t.redis, set, who, 1, { now: NOW + 30_000 })).lease!;
    expect((await checkPrepared(t.redis, set, who, 1, { now: NOW + 35_000 })).allowed).toBe(false);
    expect(await releaseLease(t.redis, set, ref, late.nonce, { now: NOW + 35_000 })).toEqual({
      released: true,
    });
    expect(await releaseLease(t.redis, set, who, late.nonce, { now: NOW + 35_000 })).toEqual({
      released: false,
    });
    // `early` expires at NOW + 60 s: releasing it later says so and touches no other lease
    const other = (await checkPrepared(t.redis, set, who, 1, { now: NOW + 50_000 })).lease!;
    expect(await releaseLease(t.redis, set, who, early.nonce, { now: NOW + 70_000 })).toEqual({
      released: false,
    });
    const [key] = ruleSetKeys(set, who);
    expect(await t.redis.zscore(key!, other.nonce)).toBe(String((NOW + 110_000) * 1000));
    expect(await checkPrepared(t.redis, set, who, 0, { now: NOW + 70_000 })).toMatchObject({
      rules: [{ remaining: 1 }],
    });
    // a set without concurrency rules holds no leases
    const plain = setOf({ name: 'b', rule: { algorithm: 'gcra', limit: 1, periodMs: 1000 } });
    expect(await releaseLease(t.redis, plain, who, other.nonce)).toEqual({ released: false });
  });

  it('a single rule through its own script, the nonce given by the caller', async () => {
    const key = ruleKey({ prefix: t.prefix, scope: 'one', identifier: unique('one'), rule: 'r' });
    // the key's TTL runs on Redis' real clock: long enough to outlast the test on a slow machine
    const rule = { limit: 1, leaseTtlMs: 60_000 };
    const lease = 'AAAAAAAAAAAAAAAA';
    expect(await concurrency(t.redis, key, rule, { now: NOW, lease })).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    expect(await t.redis.zrange(key, 0, -1, 'WITHSCORES')).toEqual([
      lease,
      String((NOW + 60_000) * 1000),
    ]);
    expect(await concurrency(t.redis, key, rule, { now: NOW + 1, cost: 0 })).toMatchObject({
      allowed: true,
      remaining: 0,
      retryAfter: 0,
    });
    expect(await releaseLeaseKeys(t.redis, [key], lease, { now: NOW + 1 })).toEqual({
      released: true,
    });
    expect(await concurrency(t.redis, key, rule, { now: NOW + 1, cost: 0 })).toMatchObject({
      remaining: 1,
    });
  });

  it('with other rules, all or nothing: no lease or reservation when any rule denies', async () => {
    const set = setOf(inflight(2), {
      name: 'tokens',
      rule: { algorithm: 'token_bucket', capacity: 10, refillPerSecond: 0.001 },
    });
    const who = unique('mixed');
    const [leases, tokens] = ruleSetKeys(set, who);
    const check = (cost: number) =>
      checkPrepared(t.redis, set, who, cost, { now: NOW, reservation: { ttlMs: 60_000 } });
    const records = async () =>
      (await t.redis.keys(`${t.prefix}*${identifierHash(who)}}:r:*`)).length;

    const first = await check(4);
    expect(first.lease && first.reservation).toBeTruthy();
    // the bucket denies: no lease is taken, no record written
    const tooMuch = await check(7);
    expect(tooMuch).toMatchObject({ allowed: false, rules: [{ allowed: true, remaining: 1 }, {}] });
    expect(tooMuch.lease ?? tooMuch.reservation).toBeUndefined();
    expect(await t.redis.zcard(leases!)).toBe(1);
    expect(await records()).toBe(1);
    await check(4);
    // the leases deny: the bucket is not charged
    const before = await t.redis.hget(tokens!, 'tokens');
    const full = await check(1);
    expect(full).toMatchObject({ allowed: false, rules: [{ allowed: false }, { allowed: true }] });
    expect(full.lease ?? full.reservation).toBeUndefined();
    expect(await t.redis.hget(tokens!, 'tokens')).toBe(before);
    expect(await records()).toBe(2);
  });
});
