import { ruleKey } from '@sluice/algorithms';
import type { ApiKeyRecord } from '@sluice/policy';
import { createTestRedis, freePort, OwnRedisServer, type TestRedis } from '@sluice/testing';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DecisionEngine,
  engineRedisOptions,
  FAIL_CLOSED_RETRY_MS,
  PolicyCache,
  UnavailableError,
  type CheckResult,
} from '../src/index';
import {
  apiKey,
  bucket,
  EventLog,
  policy,
  publish,
  QUIET_CACHE,
  recordCommands,
  startEngine,
  until,
  type EngineSetup,
} from './support';

const inflight = {
  name: 'inflight',
  algorithm: 'concurrency' as const,
  limit: 1,
  leaseTtlMs: 60_000,
};

/** One policy per fail mode (and a shadow one whose fail mode would be closed). */
const failModePolicies = () => [
  // an LLM budget per fail mode: a reservation and a lease on every allowed check
  ...(['open', 'closed', 'local'] as const).map((failMode) =>
    policy(`${failMode}-llm`, {
      id: `pol_${failMode}_llm`,
      failMode,
      reservations: {},
      rules: [bucket('tokens', 100), inflight],
    }),
  ),
  policy('open', { id: 'pol_open', failMode: 'open', rules: [bucket('burst', 10)] }),
  policy('closed', { id: 'pol_closed', failMode: 'closed', rules: [bucket('burst', 10)] }),
  policy('local', { id: 'pol_local', failMode: 'local', rules: [bucket('burst', 2)] }),
  policy('shadow', {
    id: 'pol_shadow',
    mode: 'shadow',
    failMode: 'closed',
    rules: [bucket('burst', 10)],
  }),
];

describe('fail modes with Redis unreachable (a connection to a closed port)', () => {
  let t: TestRedis;
  let cache: PolicyCache;
  let unreachable: Redis;
  let engine: DecisionEngine;
  let log: EventLog;

  beforeEach(async () => {
    t = createTestRedis('engine-fail');
    // the cache reads the real Redis; the limits' Redis is unreachable
    cache = new PolicyCache({ redis: t.redis, subscriber: t.connect(), prefix: t.prefix });
    await cache.start();
    unreachable = new Redis({ port: await freePort(), ...engineRedisOptions });
    unreachable.on('error', () => undefined);
    log = new EventLog();
    engine = new DecisionEngine({ redis: unreachable, cache, prefix: t.prefix, recorder: log });
    await publish(t, 'tnt_a', failModePolicies());
  });
  afterEach(async () => {
    unreachable.disconnect();
    await cache.stop();
    await t.cleanup();
  });

  const check = async (name: string, identifier = 'u'): Promise<CheckResult> => {
    const { record } = await apiKey(t, 'tnt_a', { scopes: ['admin'] });
    return engine.check({ key: record, policy: name, identifier });
  };

  it('open: allowed, reason fail-open, no rule figures', async () => {
    expect(await check('open')).toMatchObject({
      allowed: true,
      reason: 'fail-open',
      rules: [],
      retryAfterMs: 0,
    });
    expect(log.events).toEqual([expect.objectContaining({ allowed: true, reason: 'fail-open' })]);
  });

  it('closed: denied, reason fail-closed', async () => {
    expect(await check('closed')).toMatchObject({
      allowed: false,
      reason: 'fail-closed',
      rules: [],
      retryAfterMs: FAIL_CLOSED_RETRY_MS,
    });
    expect(log.events).toEqual([
      expect.objectContaining({ allowed: false, reason: 'fail-closed' }),
    ]);
  });

  it('local: the in-process limiter decides with the same rules', async () => {
    const results = [await check('local'), await check('local'), await check('local')];
    expect(results.map((r) => [r.allowed, r.reason, r.remaining])).toEqual([
      [true, 'local', 1],
      [true, 'local', 0],
      [false, 'local', 0],
    ]);
    expect(results[2]).toMatchObject({ deniedBy: 'burst', rules: [{ name: 'burst', limit: 2 }] });
    expect(await check('local', 'someone-else')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('shadow mode never denies, whatever its fail mode', async () => {
    expect(await check('shadow')).toMatchObject({ allowed: true, reason: 'fail-open' });
  });

  it('local: hands out reservation and lease ids that this process settles and releases', async () => {
    const { record: key } = await apiKey(t, 'tnt_a');
    const check = (cost: number) =>
      engine.check({ key, policy: 'local-llm', identifier: 'u', cost });
    const held = await check(60);
    expect(held).toMatchObject({
      allowed: true,
      reason: 'local',
      reservationId: expect.stringMatching(/^r1\.tnt_a\.pol_local_llm\./),
      leaseId: expect.stringMatching(/^l1\.tnt_a\.pol_local_llm\./),
    });
    expect(await check(1)).toMatchObject({ allowed: false, reason: 'local', deniedBy: 'inflight' });

    const reservationId = held.reservationId!;
    const leaseId = held.leaseId!;
    expect(await engine.settle({ key, reservationId, actualCost: 20 })).toMatchObject({
      alreadySettled: false,
      rules: [{ name: 'tokens', charged: -40, remaining: 80 }],
    });
    expect(await engine.settle({ key, reservationId, actualCost: 90 })).toMatchObject({
      alreadySettled: true,
      actualCost: 20,
    });
    expect(await engine.release({ key, leaseId })).toEqual({ leaseId, released: true });
    expect(await check(1)).toMatchObject({ allowed: true, reason: 'local', remaining: 0 });
    expect(log.settles).toEqual([expect.objectContaining({ estimate: 60, actualCost: 20 })]);
  });

  it('a settle or release of an id Redis would have to know is a 503', async () => {
    const { record: key } = await apiKey(t, 'tnt_a');
    const parts = `tnt_a.pol_local_llm.${'A'.repeat(22)}.${'a'.repeat(16)}`;
    await expect(
      engine.settle({ key, reservationId: `r1.${parts}`, actualCost: 1 }),
    ).rejects.toThrow(UnavailableError);
    await expect(engine.release({ key, leaseId: `l1.${parts}` })).rejects.toThrow(UnavailableError);
  });

  it('open and closed answers charge nothing and hand out no ids', async () => {
    const { record: key } = await apiKey(t, 'tnt_a');
    const open = await engine.check({ key, policy: 'open-llm', identifier: 'u', cost: 10 });
    const closed = await engine.check({ key, policy: 'closed-llm', identifier: 'u', cost: 10 });
    expect(open).toMatchObject({ allowed: true, reason: 'fail-open' });
    expect(closed).toMatchObject({ allowed: false, reason: 'fail-closed' });
    for (const result of [open, closed]) {
      expect(result).not.toHaveProperty('reservationId');
      expect(result).not.toHaveProperty('leaseId');
    }
  });

  it('inspect and reset have no fail mode: 503', async () => {
    const { record } = await apiKey(t, 'tnt_a', { scopes: ['admin'] });
    const request = { key: record, policy: 'open', identifier: 'u' };
    await expect(engine.inspect(request)).rejects.toThrow(UnavailableError);
    await expect(engine.reset(request)).rejects.toThrow(UnavailableError);
    expect(log.events).toEqual([]);
  });
});

describe('fail modes with a redis-server stopped mid-test, and recovery', () => {
  let server: OwnRedisServer;
  let own: TestRedis;
  let setup: EngineSetup;

  beforeEach(async () => {
    // its data survives the restart: the test checks nothing was charged meanwhile
    server = await OwnRedisServer.create({ persist: true });
    own = server.connections('engine-own');
    await publish(own, 'tnt_a', failModePolicies());
    setup = await startEngine(own, {}, (options) => own.connect(options));
  });
  afterEach(async () => {
    await setup.engine.stop();
    await own.cleanup();
    await server.destroy();
  });

  it('answers each fail mode while the server is down and recovers when it is back', async () => {
    const { record } = await apiKey(own, 'tnt_a');
    const check = (name: string) =>
      setup.engine.check({ key: record, policy: name, identifier: 'u' });
    expect(await check('open')).toMatchObject({ reason: 'allowed', remaining: 9 });
    expect(await check('local')).toMatchObject({ reason: 'allowed', remaining: 1 });

    await server.stop();
    const down = {
      open: await check('open'),
      closed: await check('closed'),
      local: await check('local'),
    };
    expect(down.open).toMatchObject({ allowed: true, reason: 'fail-open' });
    expect(down.closed).toMatchObject({ allowed: false, reason: 'fail-closed' });
    // the local limiter starts from its own (empty) state: this process' traffic only
    expect(down.local).toMatchObject({ allowed: true, reason: 'local', remaining: 1 });
    for (let i = 0; i < 3; i += 1) await check('open');

    await server.start();
    await until(async () => (await check('closed')).reason === 'allowed', 50);
    // nothing answered by a fail mode was charged later: 10 - 1 before - 1 now
    expect(await check('open')).toMatchObject({ reason: 'allowed', remaining: 8 });
    expect(await check('local')).toMatchObject({ reason: 'allowed', remaining: 0 });
  });

  it('settles and releases what the local fail mode handed out, once Redis is back too', async () => {
    const { record: key } = await apiKey(own, 'tnt_a');
    const check = (cost = 50) =>
      setup.engine.check({ key, policy: 'local-llm', identifier: 'u', cost });
    // caches the tenant: a policy never read cannot be decided while Redis is down
    await check(0);
    await server.stop();
    const local = await check();
    expect(local).toMatchObject({ allowed: true, reason: 'local' });

    await server.start();
    await until(async () => (await check()).reason === 'allowed', 50);
    // Redis does not know these ids: the process that handed them out does
    expect(
      await setup.engine.settle({ key, reservationId: local.reservationId!, actualCost: 10 }),
    ).toMatchObject({ alreadySettled: false, rules: [{ charged: -40, remaining: 90 }] });
    expect(await setup.engine.release({ key, leaseId: local.leaseId! })).toMatchObject({
      released: true,
    });
  });
});

describe('a Redis slower than the policy timeout', () => {
  let server: OwnRedisServer;
  let own: TestRedis;
  let setup: EngineSetup;
  // the breakers run on the engine clock: the circuit stays open until the test moves it on
  let now: number;

  beforeEach(async () => {
    server = await OwnRedisServer.create();
    own = server.connections('engine-own');
    // the longest timeout a policy allows: the checks that must be decided in Redis are, even on
    // a loaded machine; those that must time out do so because the server is stopped (SIGSTOP)
    // until the test resumes it, however long that takes
    await publish(own, 'tnt_a', [
      policy('open', { id: 'pol_open', redisTimeoutMs: 1000, rules: [bucket('burst', 10)] }),
    ]);
    now = Date.now();
    setup = await startEngine(
      own,
      // no background re-reads: they would be held by the stopped server and counted below
      { clock: () => now, breaker: { failureThreshold: 2, openMs: 300 }, cacheTuning: QUIET_CACHE },
      (options) => own.connect(options),
    );
  });
  afterEach(async () => {
    server.resume();
    await setup.engine.stop();
    await own.cleanup();
    await server.destroy();
  });

  /**
   * Resumes the server once the deadline of every script sent so far has passed on its own clock
   * (the timeout has passed on the engine's estimate of it, which is off by at most its
   * uncertainty), so those scripts run late.
   */
  const resumeLate = async () => {
    const { redisClock } = setup.engine;
    const passed = redisClock.now() + (redisClock.uncertaintyMs ?? 0);
    await until(() => redisClock.now() > passed, 5);
    server.resume();
  };

  /**
   * Caches the tenant and loads the script, ending on a check decided in Redis: one that timed
   * out on a loaded machine would count towards the circuit, a success resets the count.
   */
  const warmUp = (key: ApiKeyRecord) =>
    until(async () => {
      now += 300;
      const result = await setup.engine.check({ key, policy: 'open', identifier: 'warm' });
      return result.reason === 'allowed';
    });

  it('answers by the fail mode at the timeout, records the check once, and the late script charges nothing', async () => {
    const { record } = await apiKey(own, 'tnt_a');
    await warmUp(record);
    const logged = setup.log.events.length;
    const commands = recordCommands(setup.redis);
    server.pause();
    const result = await setup.engine.check({ key: record, policy: 'open', identifier: 'u' });
    expect(result).toMatchObject({ allowed: true, reason: 'fail-open' });
    expect(commands).toEqual(['evalsha']);
    await resumeLate();
    // the engine's connection runs its commands in order: the late script ran before this one,
    // past its deadline, and wrote nothing
    const after = await setup.engine.check({
      key: record,
      policy: 'open',
      identifier: 'u',
      cost: 0,
    });
    expect(after).toMatchObject({ reason: 'allowed', remaining: 10 });
    const key = ruleKey({
      prefix: `${own.prefix}rl:`,
      scope: 'tnt_a.pol_open',
      identifier: 'u',
      rule: 'burst',
      state: { algorithm: 'token_bucket', capacity: 1, refillPerSecond: 1 },
    });
    expect(await own.redis.exists(key)).toBe(0);
    expect(setup.log.events.slice(logged).map((e) => [e.identifier, e.reason])).toEqual([
      ['u', 'fail-open'],
      ['u', 'allowed'],
    ]);
  });

  it('opens the circuit after repeated timeouts (no call sent), then closes it once a probe passes', async () => {
    const { record } = await apiKey(own, 'tnt_a');
    const check = () => setup.engine.check({ key: record, policy: 'open', identifier: 'u' });
    await warmUp(record);
    const commands = recordCommands(setup.redis);
    server.pause();
    expect((await check()).reason).toBe('fail-open');
    expect((await check()).reason).toBe('fail-open');
    expect(setup.engine.breakers.state('tnt_a.pol_open')).toBe('open');
    for (let i = 0; i < 5; i += 1) expect((await check()).reason).toBe('fail-open');
    expect(commands).toEqual(['evalsha', 'evalsha']);
    await resumeLate();
    // past the open time, a probe goes through (again, should one fail) and closes the circuit
    await until(async () => {
      now += 300;
      return (await check()).reason === 'allowed';
    }, 50);
    expect(setup.engine.breakers.state('tnt_a.pol_open')).toBe('closed');
  });
});
