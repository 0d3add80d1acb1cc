import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  InputError,
  ReservationNotFoundError,
  ReservationsDisabledError,
  type CheckResult,
} from '../src/index';
import { apiKey, bucket, policy, publish, startEngine, until, type EngineSetup } from './support';

let t: TestRedis;
let setup: EngineSetup;
beforeEach(async () => {
  t = createTestRedis('engine-reservations');
  setup = await startEngine(t);
});
afterEach(async () => {
  await setup.engine.stop();
  await t.cleanup();
});

/** An id of the right shape that no check handed out. */
const madeUpId = (tenantId: string, policyId: string) =>
  `r1.${tenantId}.${policyId}.${'A'.repeat(22)}.${'a'.repeat(16)}`;

async function fixture() {
  await publish(t, 'tnt_a', [
    policy('llm', {
      id: 'pol_llm',
      reservations: { ttlMs: 60_000 },
      rules: [bucket('tokens', 1000)],
      candidateRules: [bucket('next', 500)],
      overrides: [
        { id: 'ovr_big', identifier: 'big', rules: { tokens: { capacity: 5000 } }, reason: 'vip' },
      ],
    }),
    policy('plain', { id: 'pol_plain', rules: [bucket('tokens', 1000)] }),
  ]);
  await publish(t, 'tnt_b', [
    policy('llm', { id: 'pol_llm', reservations: {}, rules: [bucket('tokens', 1000)] }),
  ]);
  const key = (await apiKey(t, 'tnt_a')).record;
  return { key };
}

const remaining = (result: CheckResult, rule = 'tokens') =>
  [...result.rules, ...(result.candidates ?? [])].find((r) => r.name === rule)?.remaining;

describe('DecisionEngine reservations', () => {
  it('a check with a cost returns a reservation the settle refunds or charges, once', async () => {
    const { key } = await fixture();
    const check = await setup.engine.check({ key, policy: 'llm', identifier: 'u', cost: 100 });
    const answered = Date.now();
    expect(check).toMatchObject({ allowed: true, remaining: 900 });
    expect(check.reservationId).toMatch(/^r1\.tnt_a\.pol_llm\.[A-Za-z0-9_-]{22}\.[0-9A-Za-z]{16}$/);
    // the TTL from the moment Redis ran the check: between the check's start and its answer
    expect(check.reservationExpiresAt).toBeGreaterThanOrEqual(check.at + 60_000 - 1000);
    expect(check.reservationExpiresAt).toBeLessThanOrEqual(answered + 60_000 + 1000);
    expect(check).not.toHaveProperty('leaseId');

    const reservationId = check.reservationId!;
    const settled = await setup.engine.settle({ key, reservationId, actualCost: 30 });
    expect(settled).toEqual({
      reservationId,
      settled: true,
      alreadySettled: false,
      estimate: 100,
      actualCost: 30,
      rules: [
        {
          name: 'tokens',
          algorithm: 'token_bucket',
          charged: -70,
          allowed: true,
          limit: 1000,
          remaining: 970,
          resetAt: expect.any(Number),
          retryAfterMs: 0,
        },
      ],
    });
    const again = await setup.engine.settle({ key, reservationId, actualCost: 500 });
    expect(again).toMatchObject({ alreadySettled: true, actualCost: 30, rules: [{ charged: 0 }] });
    const state = await setup.engine.inspect({ key, policy: 'llm', identifier: 'u' });
    expect(remaining(state)).toBe(970);
    // the candidate rule was settled with the live ones, though the reply leaves it out
    expect(remaining(state, 'next')).toBe(470);
  });

  it('reports the first settle of each reservation to the recorder, with estimate and actual', async () => {
    const { key } = await fixture();
    const check = await setup.engine.check({ key, policy: 'llm', identifier: 'u', cost: 100 });
    const reservationId = check.reservationId!;
    await setup.engine.settle({ key, reservationId, actualCost: 250 });
    await setup.engine.settle({ key, reservationId, actualCost: 1 });

    expect(setup.log.settles).toEqual([
      {
        tenantId: 'tnt_a',
        policy: 'llm',
        keyId: key.id,
        at: expect.any(Number),
        estimate: 100,
        actualCost: 250,
      },
    ]);
    // the check itself was counted at its estimate
    expect(setup.log.events).toEqual([expect.objectContaining({ cost: 100, allowed: true })]);
  });

  it('settles under the parameters the check was charged with (an override applied)', async () => {
    const { key } = await fixture();
    const check = await setup.engine.check({ key, policy: 'llm', identifier: 'big', cost: 3000 });
    expect(check).toMatchObject({ allowed: true, overrideId: 'ovr_big', remaining: 2000 });

    const settled = await setup.engine.settle({
      key,
      reservationId: check.reservationId!,
      actualCost: 1000,
    });
    expect(settled.rules).toEqual([
      expect.objectContaining({ name: 'tokens', charged: -2000, limit: 5000, remaining: 4000 }),
    ]);
  });

  it('hands out no reservation for a peek, a dry run, a denial or a policy without reservations', async () => {
    const { key } = await fixture();
    const check = (over: { policy?: string; cost?: number; dryRun?: boolean }) =>
      setup.engine.check({ key, policy: 'llm', identifier: 'none', cost: 10, ...over });

    expect(await check({ cost: 0 })).not.toHaveProperty('reservationId');
    expect(await check({ dryRun: true })).not.toHaveProperty('reservationId');
    expect(await check({ policy: 'plain' })).not.toHaveProperty('reservationId');
    const denied = await check({ cost: 1001 });
    expect(denied.allowed).toBe(false);
    expect(denied).not.toHaveProperty('reservationId');
  });

  it('an unsettled reservation expires and its estimate stands', async () => {
    await publish(t, 'tnt_a', [
      policy('llm', { reservations: { ttlMs: 1000 }, rules: [bucket('tokens', 1000)] }),
    ]);
    const { record: key } = await apiKey(t, 'tnt_a');
    const check = await setup.engine.check({ key, policy: 'llm', identifier: 'u', cost: 100 });
    await until(() => Date.now() > check.reservationExpiresAt! + 50, 50);

    await expect(
      setup.engine.settle({ key, reservationId: check.reservationId!, actualCost: 10 }),
    ).rejects.toThrow(ReservationNotFoundError);
    const state = await setup.engine.inspect({ key, policy: 'llm', identifier: 'u' });
    expect(remaining(state)).toBe(900);
  });

  it('finds nothing for a malformed id, another tenant’s, a made-up one or a policy that is gone', async () => {
    const { key } = await fixture();
    const foreignKey = (await apiKey(t, 'tnt_b')).record;
    const foreign = await setup.engine.check({
      key: foreignKey,
      policy: 'llm',
      identifier: 'u',
      cost: 10,
    });
    const ids = [
      'not-an-id',
      foreign.reservationId!,
      // the same parts under the caller's tenant: still no such reservation
      foreign.reservationId!.replace('tnt_b', 'tnt_a'),
      madeUpId('tnt_a', 'pol_llm'),
      madeUpId('tnt_a', 'pol_gone'),
      `l1${foreign.reservationId!.slice(2)}`,
    ];
    for (const reservationId of ids) {
      await expect(setup.engine.settle({ key, reservationId, actualCost: 1 })).rejects.toThrow(
        ReservationNotFoundError,
      );
    }
    // the other tenant's reservation is intact
    const settled = await setup.engine.settle({
      key: foreignKey,
      reservationId: foreign.reservationId!,
      actualCost: 10,
    });
    expect(settled.alreadySettled).toBe(false);
  });

  it('refuses bad input, a key not allowed on the policy, and a policy without reservations', async () => {
    const { key } = await fixture();
    const check = await setup.engine.check({ key, policy: 'llm', identifier: 'u', cost: 10 });
    const reservationId = check.reservationId!;
    for (const actualCost of [-1, 1.5, 1e9 + 1, Number.NaN]) {
      await expect(setup.engine.settle({ key, reservationId, actualCost })).rejects.toThrow(
        InputError,
      );
    }
    const narrow = (await apiKey(t, 'tnt_a', { policies: ['plain'] })).record;
    await expect(
      setup.engine.settle({ key: narrow, reservationId, actualCost: 1 }),
    ).rejects.toThrow(ForbiddenError);
    await expect(
      setup.engine.settle({ key, reservationId: madeUpId('tnt_a', 'pol_plain'), actualCost: 1 }),
    ).rejects.toThrow(ReservationsDisabledError);
  });
});
