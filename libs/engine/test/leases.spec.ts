import { ruleKey } from '@sluice/algorithms';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseNotFoundError, rateLimitHeaders, type CheckResult } from '../src/index';
import { apiKey, bucket, policy, publish, startEngine, until, type EngineSetup } from './support';

let t: TestRedis;
let setup: EngineSetup;
beforeEach(async () => {
  t = createTestRedis('engine-leases');
  setup = await startEngine(t);
});
afterEach(async () => {
  await setup.engine.stop();
  await t.cleanup();
});

const inflight = (limit: number, leaseTtlMs = 60_000) => ({
  name: 'inflight',
  algorithm: 'concurrency' as const,
  limit,
  leaseTtlMs,
});

async function fixture() {
  await publish(t, 'tnt_a', [
    // concurrency only: its compiled `rules` are empty
    policy('calls', {
      id: 'pol_calls',
      rules: [inflight(1)],
      overrides: [{ id: 'ovr_two', identifier: 'two', rules: { inflight: { limit: 2 } } }],
    }),
    policy('llm', {
      id: 'pol_llm',
      reservations: {},
      rules: [bucket('tokens', 100), inflight(2)],
    }),
    // long enough that the lease is still held at the next check on a stalled machine
    policy('short', { id: 'pol_short', rules: [inflight(1, 5000)] }),
  ]);
  await publish(t, 'tnt_b', [policy('calls', { id: 'pol_calls', rules: [inflight(1)] })]);
  return {
    key: (await apiKey(t, 'tnt_a')).record,
    admin: (await apiKey(t, 'tnt_a', { scopes: ['admin'] })).record,
  };
}

const slots = (result: CheckResult) => result.rules.find((r) => r.name === 'inflight')?.remaining;

describe('DecisionEngine leases', () => {
  it('a concurrency-only policy takes a lease per check, denies the next, and frees it on release', async () => {
    const { key } = await fixture();
    const first = await setup.engine.check({ key, policy: 'calls', identifier: 'u' });
    expect(first).toMatchObject({
      allowed: true,
      limit: 1,
      remaining: 0,
      rules: [
        {
          name: 'inflight',
          algorithm: 'concurrency',
          allowed: true,
          limit: 1,
          remaining: 0,
          quota: 1,
          windowMs: 60_000,
        },
      ],
    });
    expect(first.leaseId).toMatch(/^l1\.tnt_a\.pol_calls\.[A-Za-z0-9_-]{22}\.[0-9A-Za-z]{16}$/);
    expect(first.leaseExpiresAt).toBe(first.rules[0]!.resetAt);
    expect(first).not.toHaveProperty('reservationId');
    expect(rateLimitHeaders(first)['RateLimit-Policy']).toBe(
      '"inflight";q=1;qu="concurrent-requests"',
    );

    const second = await setup.engine.check({ key, policy: 'calls', identifier: 'u' });
    expect(second).toMatchObject({ allowed: false, deniedBy: 'inflight', reason: 'rule' });
    expect(second.retryAfterMs).toBeGreaterThan(0);
    expect(second).not.toHaveProperty('leaseId');

    const leaseId = first.leaseId!;
    expect(await setup.engine.release({ key, leaseId })).toEqual({ leaseId, released: true });
    expect(await setup.engine.release({ key, leaseId })).toEqual({ leaseId, released: false });
    expect(await setup.engine.check({ key, policy: 'calls', identifier: 'u' })).toMatchObject({
      allowed: true,
    });
  });

  it('decides leases with the rate rules all-or-nothing: a denial takes no lease', async () => {
    const { key } = await fixture();
    const check = (cost: number) =>
      setup.engine.check({ key, policy: 'llm', identifier: 'u', cost });
    const held = await check(60);
    expect(held).toMatchObject({
      allowed: true,
      rules: [{ name: 'tokens' }, { name: 'inflight' }],
    });
    expect(held.leaseId).toBeDefined();
    expect(held.reservationId).toBeDefined();

    const denied = await check(60);
    expect(denied).toMatchObject({ allowed: false, deniedBy: 'tokens' });
    expect(denied).not.toHaveProperty('leaseId');
    expect(slots(await setup.engine.inspect({ key, policy: 'llm', identifier: 'u' }))).toBe(1);
    // peeks and dry runs take no lease either
    expect(await check(0)).not.toHaveProperty('leaseId');
    const dry = await setup.engine.check({ key, policy: 'llm', identifier: 'u', dryRun: true });
    expect(dry).not.toHaveProperty('leaseId');
    expect(slots(await setup.engine.inspect({ key, policy: 'llm', identifier: 'u' }))).toBe(1);
  });

  it('applies an override of the concurrency rule; a release needs only the id', async () => {
    const { key } = await fixture();
    const check = () => setup.engine.check({ key, policy: 'calls', identifier: 'two' });
    const [a, b, c] = [await check(), await check(), await check()];
    expect([a.allowed, b.allowed, c.allowed]).toEqual([true, true, false]);
    expect(a).toMatchObject({ overrideId: 'ovr_two', rules: [{ limit: 2 }] });
    expect(await setup.engine.release({ key, leaseId: b.leaseId! })).toMatchObject({
      released: true,
    });
    expect((await check()).allowed).toBe(true);
  });

  it('a lease frees itself at expiry; releasing it afterwards is harmless', async () => {
    const { key } = await fixture();
    const held = await setup.engine.check({ key, policy: 'short', identifier: 'u' });
    expect((await setup.engine.check({ key, policy: 'short', identifier: 'u' })).allowed).toBe(
      false,
    );
    await until(() => Date.now() > held.leaseExpiresAt! + 50, 50);

    expect(await setup.engine.release({ key, leaseId: held.leaseId! })).toMatchObject({
      released: false,
    });
    expect((await setup.engine.check({ key, policy: 'short', identifier: 'u' })).allowed).toBe(
      true,
    );
  });

  it('finds no lease for a malformed id, another tenant’s, or a policy that is gone', async () => {
    const { key } = await fixture();
    const foreignKey = (await apiKey(t, 'tnt_b')).record;
    const foreign = await setup.engine.check({ key: foreignKey, policy: 'calls', identifier: 'u' });
    const ids = [
      '',
      'l1.tnt_a.pol_calls.short.nonce',
      foreign.leaseId!,
      foreign.leaseId!.replace('pol_calls', 'pol_gone').replace('tnt_b', 'tnt_a'),
      `r1${foreign.leaseId!.slice(2)}`,
    ];
    for (const leaseId of ids) {
      await expect(setup.engine.release({ key, leaseId })).rejects.toThrow(LeaseNotFoundError);
    }
    // the same parts under the caller's tenant name another identifier's lease: none held
    const mine = foreign.leaseId!.replace('tnt_b', 'tnt_a');
    expect(await setup.engine.release({ key, leaseId: mine })).toMatchObject({ released: false });
    // the other tenant's lease is still held
    expect(
      (await setup.engine.check({ key: foreignKey, policy: 'calls', identifier: 'u' })).allowed,
    ).toBe(false);
  });

  it('a reset frees the leases (the concurrency rule’s key is deleted)', async () => {
    const { key, admin } = await fixture();
    await setup.engine.check({ key, policy: 'calls', identifier: 'u' });
    const leaseKey = ruleKey({
      prefix: `${t.prefix}rl:`,
      scope: 'tnt_a.pol_calls',
      identifier: 'u',
      rule: 'inflight',
      state: { algorithm: 'concurrency', limit: 1, leaseTtlMs: 60_000 },
    });
    expect(await t.redis.zcard(leaseKey)).toBe(1);

    expect(await setup.engine.reset({ key: admin, policy: 'calls', identifier: 'u' })).toEqual({
      deleted: 1,
    });
    expect(await t.redis.exists(leaseKey)).toBe(0);
    expect((await setup.engine.check({ key, policy: 'calls', identifier: 'u' })).allowed).toBe(
      true,
    );
  });
});
