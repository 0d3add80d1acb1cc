import { ruleKey, type AnyRuleSpec } from '@sluice/algorithms';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForbiddenError, InputError } from '../src/index';
import { apiKey, bucket, policy, publish, startEngine, type EngineSetup } from './support';

let t: TestRedis;
let setup: EngineSetup;
beforeEach(async () => {
  t = createTestRedis('engine-inspect');
  setup = await startEngine(t);
});
afterEach(async () => {
  await setup.engine.stop();
  await t.cleanup();
});

const logRule = {
  name: 'log',
  algorithm: 'sliding_window_log' as const,
  limit: 3,
  windowMs: 60_000,
};

async function fixture() {
  await publish(t, 'tnt_a', [
    policy('api', {
      id: 'pol_api',
      rules: [bucket('burst', 5), logRule],
      candidateRules: [bucket('next', 2)],
    }),
  ]);
  const checker = (await apiKey(t, 'tnt_a')).record;
  const admin = (await apiKey(t, 'tnt_a', { scopes: ['admin'] })).record;
  return { checker, admin, request: { policy: 'api', identifier: 'u' } };
}

describe('DecisionEngine.inspect', () => {
  it('peeks every rule, candidates included, consuming nothing and recording nothing', async () => {
    const { checker, request } = await fixture();
    await setup.engine.check({ key: checker, ...request, cost: 2 });
    const before = setup.log.events.length;
    for (let i = 0; i < 3; i += 1) {
      const state = await setup.engine.inspect({ key: checker, ...request });
      expect(state).toMatchObject({
        allowed: true,
        reason: 'allowed',
        rules: [
          { name: 'burst', remaining: 3 },
          { name: 'log', remaining: 1 },
        ],
        candidates: [{ name: 'next', remaining: 0 }],
      });
    }
    expect(setup.log.events.length).toBe(before);
  });

  it('answers for a check of the cost given (what the next check would get), still consuming nothing', async () => {
    const { checker, request } = await fixture();
    await setup.engine.check({ key: checker, ...request, cost: 3 });
    // the log holds 3 of 3: a peek passes, a check of cost 1 would not
    expect(await setup.engine.inspect({ key: checker, ...request })).toMatchObject({
      allowed: true,
      retryAfterMs: 0,
    });
    for (let i = 0; i < 2; i += 1) {
      const next = await setup.engine.inspect({ key: checker, ...request, cost: 1 });
      expect(next).toMatchObject({
        allowed: false,
        reason: 'rule',
        deniedBy: 'log',
        rules: [
          { name: 'burst', remaining: 2 },
          { name: 'log', remaining: 0 },
        ],
      });
      expect(next.retryAfterMs).toBeGreaterThan(50_000);
    }
    await expect(setup.engine.inspect({ key: checker, ...request, cost: -1 })).rejects.toThrow(
      InputError,
    );
  });

  it('reports a suspended tenant as suspended, with the rules state', async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 5)] })], {
      status: 'suspended',
    });
    const { record } = await apiKey(t, 'tnt_a');
    const state = await setup.engine.inspect({ key: record, policy: 'api', identifier: 'u' });
    expect(state).toMatchObject({ allowed: false, reason: 'suspended', rules: [{ remaining: 5 }] });
  });
});

describe('DecisionEngine.reset', () => {
  it("deletes every key of the identifier's rules (candidates and the log's :sum too)", async () => {
    const { checker, admin, request } = await fixture();
    await setup.engine.check({ key: checker, ...request, cost: 2 });
    await setup.engine.check({ key: checker, ...request, identifier: 'other' });
    const bucketState = { algorithm: 'token_bucket', capacity: 1, refillPerSecond: 1 } as const;
    const key = (rule: string, state: AnyRuleSpec) =>
      ruleKey({ prefix: `${t.prefix}rl:`, scope: 'tnt_a.pol_api', identifier: 'u', rule, state });
    const keys = [
      key('burst', bucketState),
      key('log', logRule),
      `${key('log', logRule)}:sum`,
      key('c-next', bucketState),
    ];
    expect(await t.redis.exists(...keys)).toBe(4);

    expect(await setup.engine.reset({ key: admin, ...request })).toEqual({ deleted: 4 });
    expect(await t.redis.exists(...keys)).toBe(0);
    const fresh = await setup.engine.inspect({ key: checker, ...request });
    expect(fresh.rules.map((r) => r.remaining)).toEqual([5, 3]);
    const other = await setup.engine.inspect({ key: checker, ...request, identifier: 'other' });
    expect(other.rules.map((r) => r.remaining)).toEqual([4, 2]);
    expect(await setup.engine.reset({ key: admin, ...request })).toEqual({ deleted: 0 });
  });

  it('needs the admin scope', async () => {
    const { checker, request } = await fixture();
    await expect(setup.engine.reset({ key: checker, ...request })).rejects.toThrow(
      new ForbiddenError('This API key lacks the admin scope.'),
    );
  });
});
