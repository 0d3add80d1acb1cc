import type { ApiKeyRecord } from '@sluice/policy';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  apiKey,
  policy,
  publish,
  QUIET_CACHE,
  recordCommands,
  startEngine,
  type EngineSetup,
} from './support';

let t: TestRedis;
let setup: EngineSetup | undefined;
beforeEach(() => {
  t = createTestRedis('engine-breakers');
});
afterEach(async () => {
  await setup?.engine.stop();
  setup = undefined;
  await t.cleanup();
});

/**
 * Overwrites every key the policy keeps in Redis with a string where its scripts keep hashes, so
 * its next Lua call fails with WRONGTYPE; returns them. Found by SCAN rather than named, whatever
 * the rule keys' format (their scope, `<tenantId>.<policyId>`, is in each).
 */
async function breakPolicy(scope: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const found of t.redis.scanStream({ match: `${t.prefix}*${scope}*` })) {
    keys.push(...(found as string[]));
  }
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) await t.redis.set(key, 'not a bucket');
  return keys;
}

describe('one circuit per policy', () => {
  it('a policy whose Lua call fails opens only its own circuit: other policies and tenants keep deciding in Redis', async () => {
    // every policy fails closed, so an answer by fail mode is told apart from a decision
    const closed = { failMode: 'closed' as const };
    await publish(t, 'tnt_a', [
      policy('broken', { id: 'pol_broken', ...closed }),
      policy('healthy', { id: 'pol_healthy', ...closed }),
    ]);
    // the same policy id in another tenant is another policy
    await publish(t, 'tnt_b', [policy('broken', { id: 'pol_broken', ...closed })]);
    const a = (await apiKey(t, 'tnt_a')).record;
    const b = (await apiKey(t, 'tnt_b')).record;
    let now = Date.now();
    const errors: unknown[] = [];
    setup = await startEngine(t, {
      clock: () => now,
      breaker: { failureThreshold: 2, openMs: 1000 },
      cacheTuning: QUIET_CACHE,
      onError: (error) => errors.push(error),
    });
    const check = async (key: ApiKeyRecord, name: string, identifier = 'u') =>
      (await setup!.engine.check({ key, policy: name, identifier })).reason;
    // both tenants cached, and the state of the policy about to break written
    expect([await check(a, 'healthy'), await check(b, 'broken'), await check(a, 'broken')]).toEqual(
      ['allowed', 'allowed', 'allowed'],
    );
    const broken = await breakPolicy('tnt_a.pol_broken');
    expect([await check(a, 'broken'), await check(a, 'broken')]).toEqual([
      'fail-closed',
      'fail-closed',
    ]);
    expect(errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('WRONGTYPE') }),
      expect.objectContaining({ message: expect.stringContaining('WRONGTYPE') }),
    ]);

    const commands = recordCommands(setup.redis);
    // open: the broken policy answers by its fail mode without a call, for any identifier
    expect(await check(a, 'broken', 'someone-else')).toBe('fail-closed');
    expect(commands).toEqual([]);
    // the same tenant's other policy, and another tenant's, still decide in Redis
    for (let i = 0; i < 3; i += 1) {
      expect(await check(a, 'healthy')).toBe('allowed');
      expect(await check(b, 'broken')).toBe('allowed');
    }
    expect(commands).toEqual(Array(6).fill('evalsha'));
    expect(setup.engine.breakers.stats()).toEqual({ open: 1, openings: 1, held: 1 });

    // repaired: after the open time one probe goes through, succeeds and closes the circuit
    await t.redis.del(...broken);
    now += 1000;
    expect(await check(a, 'broken')).toBe('allowed');
    expect(await check(a, 'broken', 'someone-else')).toBe('allowed');
    expect(setup.engine.breakers.stats()).toEqual({ open: 0, openings: 1, held: 0 });
  });

  it('counts failures per policy: another policy succeeding between them does not reset them', async () => {
    const closed = { failMode: 'closed' as const };
    await publish(t, 'tnt_a', [
      policy('broken', { id: 'pol_broken', ...closed }),
      policy('healthy', { id: 'pol_healthy', ...closed }),
    ]);
    const { record: key } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, {
      breaker: { failureThreshold: 2, openMs: 60_000 },
      cacheTuning: QUIET_CACHE,
    });
    const check = async (name: string) =>
      (await setup!.engine.check({ key, policy: name, identifier: 'u' })).reason;
    expect(await check('broken')).toBe('allowed');
    await breakPolicy('tnt_a.pol_broken');
    expect(await check('broken')).toBe('fail-closed');
    expect(await check('healthy')).toBe('allowed');
    expect(await check('broken')).toBe('fail-closed');
    expect(await check('healthy')).toBe('allowed');

    const commands = recordCommands(setup.redis);
    expect(await check('broken')).toBe('fail-closed');
    expect(commands).toEqual([]);
  });
});
