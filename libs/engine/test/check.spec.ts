import { RETRY_NEVER, ruleKey } from '@sluice/algorithms';
import { revokeApiKey } from '@sluice/policy';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ForbiddenError,
  InputError,
  PolicyNotFoundError,
  type CheckResult,
} from '../src/index';
import {
  apiKey,
  bucket,
  policy,
  publish,
  QUIET_CACHE,
  recordCommands,
  startEngine,
  type EngineSetup,
} from './support';

let t: TestRedis;
let setup: EngineSetup;
beforeEach(async () => {
  t = createTestRedis('engine-check');
  // no background re-reads: the tests that count commands see only the checks'
  setup = await startEngine(t, { cacheTuning: QUIET_CACHE });
});
afterEach(async () => {
  await setup.engine.stop();
  await t.cleanup();
});

const daily = (limit: number) => ({
  name: 'daily',
  algorithm: 'fixed_window' as const,
  limit,
  windowMs: 86_400_000,
});

async function checks(
  key: Awaited<ReturnType<typeof apiKey>>['record'],
  name: string,
  identifier: string,
  count: number,
  cost = 1,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (let i = 0; i < count; i += 1) {
    results.push(await setup.engine.check({ key, policy: name, identifier, cost }));
  }
  return results;
}

describe('DecisionEngine.check', () => {
  it('allows until the bucket is empty, then denies with the rule, figures and an event each', async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 2)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const [first, second, third] = await checks(record, 'api', 'user-1', 3);
    expect(first).toMatchObject({
      allowed: true,
      policy: 'api',
      identifier: 'user-1',
      limit: 2,
      remaining: 1,
      retryAfterMs: 0,
      reason: 'allowed',
      rules: [
        {
          name: 'burst',
          algorithm: 'token_bucket',
          allowed: true,
          limit: 2,
          remaining: 1,
          retryAfterMs: 0,
          quota: 2,
          windowMs: 2_000_000,
        },
      ],
    });
    expect(first).not.toHaveProperty('deniedBy');
    expect(first).not.toHaveProperty('shadowDenied');
    expect(first).not.toHaveProperty('candidates');
    expect(second).toMatchObject({ allowed: true, remaining: 0 });
    expect(third).toMatchObject({
      allowed: false,
      reason: 'rule',
      deniedBy: 'burst',
      remaining: 0,
    });
    // a token refills in 1000 s at 0.001/s
    expect(third?.retryAfterMs).toBeGreaterThan(999_000);
    expect(third?.retryAfterMs).toBeLessThanOrEqual(1_000_000);
    expect(third?.retryAfterMs).toBe(third?.rules[0]?.retryAfterMs);
    expect(setup.log.events).toEqual([
      expect.objectContaining({ allowed: true, reason: 'allowed', cost: 1 }),
      expect.objectContaining({ allowed: true, reason: 'allowed' }),
      {
        tenantId: 'tnt_a',
        policy: 'api',
        keyId: record.id,
        at: third?.at,
        identifier: 'user-1',
        allowed: false,
        reason: 'rule',
        deniedBy: 'burst',
        cost: 1,
        shadowDenied: false,
        candidateDenied: false,
        // the answer itself, for the decision log (its figures, not a copy)
        rules: third?.rules,
        answer: third,
      },
    ]);
    expect(setup.log.events[2]?.answer).toBe(third);
  });

  it('counts identifiers apart, and keys them by the tenant id, policy id and rule name', async () => {
    const published = await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 1)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    expect((await checks(record, 'api', 'a', 2)).map((r) => r.allowed)).toEqual([true, false]);
    expect((await checks(record, 'api', 'b', 1)).map((r) => r.allowed)).toEqual([true]);
    const key = ruleKey({
      prefix: `${t.prefix}rl:`,
      scope: `tnt_a.${published.policies['api']!.id}`,
      identifier: 'a',
      rule: 'burst',
      state: { algorithm: 'token_bucket', capacity: 1, refillPerSecond: 1 },
    });
    expect(await t.redis.exists(key)).toBe(1);
  });

  it('is all-or-nothing: a denial by the daily window consumes nothing from the burst bucket', async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 10), daily(3)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const results = await checks(record, 'api', 'user-1', 5);
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    const denied = results[4]!;
    expect(denied).toMatchObject({ reason: 'rule', deniedBy: 'daily', limit: 3, remaining: 0 });
    expect(denied.rules.map((r) => [r.name, r.allowed, r.remaining])).toEqual([
      ['burst', true, 7],
      ['daily', false, 0],
    ]);
    // the daily window resets at the next UTC midnight
    expect(denied.retryAfterMs).toBe(denied.rules[1]?.retryAfterMs);
    const peek = await setup.engine.inspect({ key: record, policy: 'api', identifier: 'user-1' });
    expect(peek.rules.map((r) => r.remaining)).toEqual([7, 0]);
  });

  it('takes the headline figures from the rule with the least remaining share when allowed', async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 10), daily(4)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const [first] = await checks(record, 'api', 'user-1', 1, 2);
    // burst 8/10 left, daily 2/4 left: the daily window is the tighter one
    expect(first).toMatchObject({ allowed: true, limit: 4, remaining: 2 });
    expect(first?.resetAt).toBe(first?.rules[1]?.resetAt);
  });

  it('peeks at cost 0 and charges nothing on a dry run (which records no usage)', async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 3)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const peek = await setup.engine.check({ key: record, policy: 'api', identifier: 'u', cost: 0 });
    expect(peek).toMatchObject({ allowed: true, remaining: 3 });
    const dry = await setup.engine.check({
      key: record,
      policy: 'api',
      identifier: 'u',
      cost: 3,
      dryRun: true,
    });
    expect(dry).toMatchObject({ allowed: true, remaining: 0 });
    const real = await setup.engine.check({ key: record, policy: 'api', identifier: 'u', cost: 3 });
    expect(real).toMatchObject({ allowed: true, remaining: 0 });
    expect(setup.log.events.map((e) => e.cost)).toEqual([0, 3]);
  });

  it('denies a cost that can never pass with retryAfterMs -1', async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 3)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const [result] = await checks(record, 'api', 'u', 1, 4);
    expect(result).toMatchObject({ allowed: false, retryAfterMs: RETRY_NEVER, deniedBy: 'burst' });
  });

  it('reports the leaky bucket queue delay', async () => {
    // one leaves every 1000 s: the queue barely drains between the checks, however slow they are
    const leaky = {
      name: 'queue',
      algorithm: 'leaky_bucket' as const,
      capacity: 5,
      leakPerSecond: 0.001,
    };
    await publish(t, 'tnt_a', [policy('hooks', { rules: [leaky] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const results = await checks(record, 'hooks', 'endpoint-1', 2);
    expect(results[0]).toMatchObject({ delayMs: 0, rules: [{ delayMs: 0 }] });
    expect(results[1]?.delayMs).toBeGreaterThan(900_000);
    expect(results[1]?.delayMs).toBeLessThanOrEqual(1_000_000);
  });
});

describe('overrides', () => {
  const base = () =>
    policy('api', {
      rules: [bucket('burst', 1)],
      overrides: [
        {
          id: 'ovr_vip',
          identifier: 'premium_vip',
          match: 'exact',
          rules: { burst: { capacity: 10 } },
        },
        { id: 'ovr_premium', identifier: 'premium_*', rules: { burst: { capacity: 3 } } },
        { id: 'ovr_gold', identifier: 'premium_gold_*', rules: { burst: { capacity: 5 } } },
        {
          id: 'ovr_expired',
          identifier: 'premium_gold_old_*',
          rules: { burst: { capacity: 9 } },
          expiresAt: '2000-01-01T00:00:00Z',
        },
      ],
    });

  it.each([
    ['premium_vip', 'ovr_vip', 10],
    ['premium_x', 'ovr_premium', 3],
    ['premium_gold_1', 'ovr_gold', 5],
    ['premium_gold_old_1', 'ovr_gold', 5],
    ['premium_vip2', 'ovr_premium', 3],
    ['free_1', undefined, 1],
  ])(
    '%s gets %s (limit %d): exact first, else the longest live prefix',
    async (id, override, limit) => {
      await publish(t, 'tnt_a', [base()]);
      const { record } = await apiKey(t, 'tnt_a');
      const [result] = await checks(record, 'api', id, 1);
      expect(result?.limit).toBe(limit);
      expect(result?.overrideId).toBe(override);
      expect(setup.log.events[0]?.overrideId).toBe(override);
    },
  );

  it('ignores an override once the engine clock passes its expiry', async () => {
    let now = Date.UTC(2030, 0, 1);
    await setup.engine.stop();
    setup = await startEngine(t, { clock: () => now });
    await publish(t, 'tnt_a', [
      policy('api', {
        rules: [bucket('burst', 1)],
        overrides: [
          {
            id: 'ovr_1',
            identifier: 'bob',
            rules: { burst: { capacity: 4 } },
            expiresAt: now + 1000,
          },
        ],
      }),
    ]);
    const { record } = await apiKey(t, 'tnt_a');
    expect((await checks(record, 'api', 'bob', 1))[0]).toMatchObject({
      limit: 4,
      overrideId: 'ovr_1',
    });
    now += 1000;
    const [after] = await checks(record, 'api', 'bob', 1);
    expect(after?.limit).toBe(1);
    expect(after).not.toHaveProperty('overrideId');
  });

  it('merges the override over the policy rule (other parameters and rules stay)', async () => {
    await publish(t, 'tnt_a', [
      policy('api', {
        rules: [bucket('burst', 2), daily(50)],
        overrides: [{ id: 'ovr_1', identifier: 'bob', rules: { daily: { limit: 100 } } }],
      }),
    ]);
    const { record } = await apiKey(t, 'tnt_a');
    const [result] = await checks(record, 'api', 'bob', 1);
    expect(result?.rules.map((r) => [r.name, r.limit, r.windowMs])).toEqual([
      ['burst', 2, 2_000_000],
      ['daily', 100, 86_400_000],
    ]);
  });
});

describe('shadow mode and candidate rules', () => {
  it('shadow: allowed although a rule denies, with shadowDenied and the would-be denier', async () => {
    await publish(t, 'tnt_a', [policy('api', { mode: 'shadow', rules: [bucket('burst', 1)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const [first, second] = await checks(record, 'api', 'u', 2);
    expect(first).toMatchObject({ allowed: true, reason: 'allowed', shadowDenied: false });
    expect(second).toMatchObject({
      allowed: true,
      reason: 'shadow',
      shadowDenied: true,
      deniedBy: 'burst',
      retryAfterMs: 0,
      rules: [{ allowed: false }],
    });
    expect(setup.log.events.map((e) => [e.allowed, e.reason, e.shadowDenied])).toEqual([
      [true, 'allowed', false],
      [true, 'shadow', true],
    ]);
  });

  it('candidates: own counters in the same call, never deny, their denials counted apart', async () => {
    await publish(t, 'tnt_a', [
      policy('api', { rules: [bucket('burst', 5)], candidateRules: [bucket('next', 1)] }),
    ]);
    const { record } = await apiKey(t, 'tnt_a');
    const commands = recordCommands(setup.redis);
    const [first, second] = await checks(record, 'api', 'u', 2);
    // live and candidate rules go in one composite call per check
    expect(commands.filter((name) => name.startsWith('eval'))).toEqual(['evalsha', 'evalsha']);
    expect(first).toMatchObject({
      allowed: true,
      remaining: 4,
      candidates: [{ name: 'next', allowed: true, remaining: 0 }],
    });
    expect(second).toMatchObject({
      allowed: true,
      reason: 'allowed',
      remaining: 3,
      rules: [{ name: 'burst' }],
      candidates: [{ name: 'next', allowed: false }],
    });
    expect(second).not.toHaveProperty('deniedBy');
    expect(setup.log.events.map((e) => e.candidateDenied)).toEqual([false, true]);
    // which candidate would have denied, for the per-rule counts
    expect(setup.log.events.map((e) => e.candidatesDeniedBy)).toEqual([undefined, ['next']]);
  });
});

describe('tenants, keys and input', () => {
  it('denies every check of a suspended tenant without a Redis call', async () => {
    await publish(t, 'tnt_a', [policy('api')], { status: 'suspended' });
    const { record } = await apiKey(t, 'tnt_a');
    await setup.engine.check({ key: record, policy: 'api', identifier: 'warm-up' });
    const commands = recordCommands(setup.redis);
    const result = await setup.engine.check({ key: record, policy: 'api', identifier: 'u' });
    expect(commands).toEqual([]);
    expect(result).toMatchObject({
      allowed: false,
      reason: 'suspended',
      rules: [],
      retryAfterMs: RETRY_NEVER,
    });
    expect(setup.log.events.at(-1)).toMatchObject({ allowed: false, reason: 'suspended' });
  });

  it("isolates tenants: another tenant's policy name is 404, and same names count apart", async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 1)] })]);
    await publish(t, 'tnt_b', [
      policy('api', { rules: [bucket('burst', 1)] }),
      policy('b-only', { rules: [bucket('burst', 1)] }),
    ]);
    await publish(t, 'tnt_c', [policy('other')]);
    const a = (await apiKey(t, 'tnt_a')).record;
    const b = (await apiKey(t, 'tnt_b')).record;
    const c = (await apiKey(t, 'tnt_c')).record;
    await expect(setup.engine.check({ key: a, policy: 'b-only', identifier: 'u' })).rejects.toThrow(
      new PolicyNotFoundError('b-only'),
    );
    await expect(setup.engine.check({ key: c, policy: 'api', identifier: 'u' })).rejects.toThrow(
      PolicyNotFoundError,
    );
    expect((await checks(a, 'api', 'u', 1))[0]?.allowed).toBe(true);
    expect((await checks(b, 'api', 'u', 1))[0]?.allowed).toBe(true);
    expect(setup.log.events.map((e) => e.tenantId)).toEqual(['tnt_a', 'tnt_b']);
  });

  it('never shares counters between tenants, even when they were compiled with the same policy id', async () => {
    // e.g. a plan template compiled into both tenants under its own id
    const template = () => policy('api', { id: 'pol_template', rules: [bucket('burst', 1)] });
    await publish(t, 'tnt_a', [template()]);
    await publish(t, 'tnt_b', [template()]);
    const a = (await apiKey(t, 'tnt_a')).record;
    const b = (await apiKey(t, 'tnt_b')).record;
    expect((await checks(a, 'api', 'same-user', 2)).map((r) => r.reason)).toEqual([
      'allowed',
      'rule',
    ]);
    expect((await checks(b, 'api', 'same-user', 1))[0]).toMatchObject({
      reason: 'allowed',
      remaining: 0,
    });
    const key = (tenantId: string) =>
      ruleKey({
        prefix: `${t.prefix}rl:`,
        scope: `${tenantId}.pol_template`,
        identifier: 'same-user',
        rule: 'burst',
        state: { algorithm: 'token_bucket', capacity: 1, refillPerSecond: 1 },
      });
    expect(await t.redis.exists(key('tnt_a'), key('tnt_b'))).toBe(2);
  });

  it('is 404 for a key whose tenant has no published policies, and for impossible names', async () => {
    const { record } = await apiKey(t, 'tnt_ghost');
    await expect(
      setup.engine.check({ key: record, policy: 'api', identifier: 'u' }),
    ).rejects.toThrow(PolicyNotFoundError);
    await publish(t, 'tnt_a', [policy('api')]);
    const a = (await apiKey(t, 'tnt_a')).record;
    for (const name of ['API', 'constructor', '__proto__', 'api ']) {
      await expect(setup.engine.check({ key: a, policy: name, identifier: 'u' })).rejects.toThrow(
        PolicyNotFoundError,
      );
    }
  });

  it("is 403 for a policy outside the key's list or a missing scope", async () => {
    await publish(t, 'tnt_a', [policy('api'), policy('web')]);
    const limited = (await apiKey(t, 'tnt_a', { policies: ['web'] })).record;
    await expect(
      setup.engine.check({ key: limited, policy: 'api', identifier: 'u' }),
    ).rejects.toThrow(new ForbiddenError('This API key may not use policy "api".'));
    expect((await checks(limited, 'web', 'u', 1))[0]?.allowed).toBe(true);
    const admin = (await apiKey(t, 'tnt_a', { scopes: ['admin'] })).record;
    expect((await checks(admin, 'api', 'u', 1))[0]?.allowed).toBe(true);
    const none = { ...limited, scopes: [] };
    await expect(setup.engine.check({ key: none, policy: 'web', identifier: 'u' })).rejects.toThrow(
      new ForbiddenError('This API key lacks the check scope.'),
    );
  });

  it.each([
    ['an empty identifier', { identifier: '' }, 'identifier'],
    ['a 258-byte identifier', { identifier: 'é'.repeat(129) }, 'identifier'],
    ['a number identifier', { identifier: 42 }, 'identifier'],
    ['cost -1', { cost: -1 }, 'cost'],
    ['cost 1.5', { cost: 1.5 }, 'cost'],
    ['cost 1e9 + 1', { cost: 1e9 + 1 }, 'cost'],
    ['cost "1"', { cost: '1' }, 'cost'],
    ['dryRun "yes"', { dryRun: 'yes' }, 'dryRun'],
    ['a 65-character policy name', { policy: 'p'.repeat(65) }, 'policy'],
    ['a number policy', { policy: 7 }, 'policy'],
  ])('is 400 for %s (field %s), without a Redis call', async (_label, input, path) => {
    await publish(t, 'tnt_a', [policy('api')]);
    const { record } = await apiKey(t, 'tnt_a');
    const commands = recordCommands(setup.redis);
    const check = setup.engine.check({
      key: record,
      policy: 'api',
      identifier: 'u',
      ...(input as object),
    });
    await expect(check).rejects.toThrow(InputError);
    await check.catch((error: InputError) => {
      expect(error.issues.map((issue) => issue.path)).toEqual([path]);
      expect(error.toProblem('/v1/check')).toMatchObject({ status: 400, errors: error.issues });
    });
    expect(commands).toEqual([]);
    expect(setup.log.events).toEqual([]);
  });

  it('accepts any identifier of up to 256 bytes', async () => {
    await publish(t, 'tnt_a', [policy('api')]);
    const { record } = await apiKey(t, 'tnt_a');
    for (const identifier of ['{tag}', 'a\nb', 'é'.repeat(128), '\u0000', '🦀']) {
      const result = await setup.engine.check({ key: record, policy: 'api', identifier });
      expect(result).toMatchObject({ allowed: true, identifier });
    }
  });
});

describe('DecisionEngine.authenticate', () => {
  it('returns the record of a valid secret', async () => {
    const { secret, record } = await apiKey(t, 'tnt_a', { policies: ['api'] });
    expect(await setup.engine.authenticate(secret)).toEqual(record);
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['sk_live_unknown', 'invalid'],
    ['x'.repeat(300), 'invalid'],
  ])('refuses %s as %s', async (secret, failure) => {
    const refused = setup.engine.authenticate(secret);
    await expect(refused).rejects.toThrow(AuthenticationError);
    await refused.catch((error: AuthenticationError) => {
      expect(error.failure).toBe(failure);
      expect(error.toProblem('/v1/check')).toMatchObject({ status: 401, title: 'Unauthorized' });
    });
  });

  it('refuses a revoked key and an expired one (by the engine clock)', async () => {
    const revoked = await apiKey(t, 'tnt_a');
    await revokeApiKey(t.redis, t.prefix, revoked.secret);
    await expect(setup.engine.authenticate(revoked.secret)).rejects.toThrow(
      new AuthenticationError('invalid'),
    );
    let now = Date.now();
    await setup.engine.stop();
    setup = await startEngine(t, { clock: () => now });
    const expiring = await apiKey(t, 'tnt_a', { expiresAt: now + 60_000 });
    expect((await setup.engine.authenticate(expiring.secret)).id).toBe(expiring.record.id);
    now += 60_000;
    await expect(setup.engine.authenticate(expiring.secret)).rejects.toThrow(
      new AuthenticationError('expired'),
    );
  });
});
