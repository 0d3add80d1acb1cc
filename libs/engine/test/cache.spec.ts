import { apiKeyKey, deleteTenant, hashApiKey, putApiKey, revokeApiKey } from '@sluice/policy';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthenticationError, PolicyNotFoundError, type CacheCounters } from '../src/index';
import {
  apiKey,
  bucket,
  policy,
  publish,
  publishSilently,
  QUIET_CACHE,
  recordCommands,
  startEngine,
  until,
  type EngineSetup,
} from './support';

let t: TestRedis;
let setup: EngineSetup | undefined;
beforeEach(() => {
  t = createTestRedis('engine-cache');
});
afterEach(async () => {
  await setup?.engine.stop();
  setup = undefined;
  await t.cleanup();
});

const limitOf = async (secret: string, identifier = 'u') => {
  const key = await setup!.engine.authenticate(secret);
  return (await setup!.engine.check({ key, policy: 'api', identifier, cost: 0 })).limit;
};

describe('PolicyCache: filling and the hot path', () => {
  it('makes exactly one Redis call per warm check: the composite EVALSHA', async () => {
    await publish(t, 'tnt_a', [
      policy('api', { rules: [bucket('burst', 100), bucket('second', 50)] }),
    ]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: QUIET_CACHE });
    await limitOf(secret);
    const commands = recordCommands(setup.redis);
    for (let i = 0; i < 20; i += 1) {
      const key = await setup.engine.authenticate(secret);
      await setup.engine.check({ key, policy: 'api', identifier: `user-${i % 3}` });
    }
    expect(commands).toEqual(Array(20).fill('evalsha'));
  });

  it('reads a tenant and a key once however many checks miss at once (single flight)', async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 100)] })]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: QUIET_CACHE });
    const commands = recordCommands(setup.redis);
    const engine = setup.engine;
    const results = await Promise.all(
      Array.from({ length: 25 }, async (_, i) => {
        const key = await engine.authenticate(secret);
        return engine.check({ key, policy: 'api', identifier: `u${i}` });
      }),
    );
    expect(results.every((result) => result.allowed)).toBe(true);
    expect(commands.filter((name) => name !== 'evalsha').sort()).toEqual(['get', 'hmget']);
  });

  it('remembers an unknown key for at most the negative TTL', async () => {
    let now = Date.now();
    setup = await startEngine(t, { clock: () => now, cacheTuning: QUIET_CACHE });
    const secret = 'sk_live_notyetstoredxxxxxxxxxxxxxxxxx';
    const commands = recordCommands(setup.redis);
    await expect(setup.engine.authenticate(secret)).rejects.toThrow(AuthenticationError);
    await expect(setup.engine.authenticate(secret)).rejects.toThrow(AuthenticationError);
    expect(commands).toEqual(['get']);
    // stored without a change message: only the TTL (1 s by default) ends the negative entry
    await t.redis.set(
      apiKeyKey(t.prefix, hashApiKey(secret)),
      JSON.stringify({ id: 'key_1', tenantId: 'tnt_a', policies: null, scopes: ['check'] }),
    );
    now += 999;
    await expect(setup.engine.authenticate(secret)).rejects.toThrow(AuthenticationError);
    now += 1;
    expect((await setup.engine.authenticate(secret)).id).toBe('key_1');
  });

  it('learns a new key at once from its change message', async () => {
    setup = await startEngine(t);
    const secret = 'sk_live_storedlaterxxxxxxxxxxxxxxxxxx';
    await expect(setup.engine.authenticate(secret)).rejects.toThrow(AuthenticationError);
    await putApiKey(t.redis, t.prefix, secret, {
      id: 'key_2',
      tenantId: 'tnt_a',
      policies: null,
      scopes: ['check'],
    });
    await until(() =>
      setup!.engine.authenticate(secret).then(
        () => true,
        () => false,
      ),
    );
  });
});

describe('PolicyCache: invalidation', () => {
  it('picks up a published version from its change message', async () => {
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 5)] })]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: { tenantRecheckMs: 600_000 } });
    expect(await limitOf(secret)).toBe(5);
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 9)] })]);
    await until(async () => (await limitOf(secret)) === 9);
  });

  it('does not keep a load that a change message overtook while it was in flight', async () => {
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 5)] })]);
    setup = await startEngine(t, { cacheTuning: { tenantRecheckMs: 600_000 } });
    // hold the first read's reply (Redis answered it with version 1) until version 2 is out
    const hmget = setup.redis.hmget.bind(setup.redis);
    let reads = 0;
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    setup.redis.hmget = (async (...args: Parameters<typeof hmget>) => {
      reads += 1;
      const reply = await hmget(...args);
      if (reads === 1) await held;
      return reply;
    }) as typeof hmget;
    const first = setup.engine.cache.tenant('tnt_a');
    await until(() => reads === 1);
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 9)] })]);
    await until(() => reads === 2);
    release();
    expect((await first)?.tenant.version).toBe(1);
    await until(async () => (await setup!.engine.cache.tenant('tnt_a'))?.tenant.version === 2);
    expect(reads).toBe(2);
  });

  it('notices a version published without a message at the next version re-check', async () => {
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 5)] })]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: { tenantRecheckMs: 600_000 } });
    expect(await limitOf(secret)).toBe(5);
    await publishSilently(t, 'tnt_a', 2, [
      policy('api', { id: 'pol_api', rules: [bucket('burst', 7)] }),
    ]);
    expect(await limitOf(secret)).toBe(5);
    await setup.engine.cache.recheckTenants();
    await until(async () => (await limitOf(secret)) === 7);
  });

  it('re-checks versions on its own timer', async () => {
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 5)] })]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: { tenantRecheckMs: 100 } });
    expect(await limitOf(secret)).toBe(5);
    await publishSilently(t, 'tnt_a', 3, [policy('api', { id: 'pol_api' })], {
      status: 'suspended',
    });
    await until(async () => {
      const key = await setup!.engine.authenticate(secret);
      return (
        (await setup!.engine.check({ key, policy: 'api', identifier: 'u' })).reason === 'suspended'
      );
    });
  });

  it('forgets a deleted tenant: its policies are 404', async () => {
    await publish(t, 'tnt_a', [policy('api')]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t);
    await limitOf(secret);
    await deleteTenant(t.redis, t.prefix, 'tnt_a');
    await until(() =>
      limitOf(secret).then(
        () => false,
        (error: unknown) => error instanceof PolicyNotFoundError,
      ),
    );
  });

  it('re-checks everything when the subscriber reconnects (messages may have been lost)', async () => {
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 5)] })]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, {
      cacheTuning: { tenantRecheckMs: 600_000, keyRecheckMs: 600_000 },
    });
    await limitOf(secret);
    await t.redis.del(apiKeyKey(t.prefix, hashApiKey(secret)));
    await expect(setup.engine.authenticate(secret)).resolves.toBeDefined();
    setup.subscriber.disconnect(true);
    await until(() =>
      setup!.engine.authenticate(secret).then(
        () => false,
        () => true,
      ),
    );
  });
});

describe('API key revocation', () => {
  it('lands at once with its change message', async () => {
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: { keyRecheckMs: 600_000 } });
    await setup.engine.authenticate(secret);
    await revokeApiKey(t.redis, t.prefix, secret);
    await until(() =>
      setup!.engine.authenticate(secret).then(
        () => false,
        () => true,
      ),
    );
  });

  it('lands at the next key re-check when the message is lost', async () => {
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: { keyRecheckMs: 600_000 } });
    await setup.engine.authenticate(secret);
    await t.redis.del(apiKeyKey(t.prefix, hashApiKey(secret)));
    await expect(setup.engine.authenticate(secret)).resolves.toBeDefined();
    await setup.engine.cache.recheckKeys();
    await expect(setup.engine.authenticate(secret)).rejects.toThrow(AuthenticationError);
  });

  it('lands by the default re-check (every 1 s, inside the 2 s promise) with no message', async () => {
    const { secret } = await apiKey(t, 'tnt_a');
    // only the cache's intervals run on a fake clock: 1 s of it passes exactly when told
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      setup = await startEngine(t);
      await setup.engine.authenticate(secret);
      await t.redis.del(apiKeyKey(t.prefix, hashApiKey(secret)));
      await vi.advanceTimersByTimeAsync(999);
      await expect(setup.engine.authenticate(secret)).resolves.toBeDefined();
      await vi.advanceTimersByTimeAsync(1);
      await until(() =>
        setup!.engine.authenticate(secret).then(
          () => false,
          () => true,
        ),
      );
    } finally {
      await setup?.engine.stop();
      setup = undefined;
      vi.useRealTimers();
    }
  });

  it('follows a changed key record (e.g. its policies narrowed) at the re-check', async () => {
    await publish(t, 'tnt_a', [policy('api'), policy('web')]);
    const { secret, record } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: { keyRecheckMs: 600_000 } });
    await setup.engine.authenticate(secret);
    await t.redis.set(
      apiKeyKey(t.prefix, hashApiKey(secret)),
      JSON.stringify({ ...record, policies: ['web'] }),
    );
    await setup.engine.cache.recheckKeys();
    expect((await setup.engine.authenticate(secret)).policies).toEqual(['web']);
  });
});

describe('PolicyCache: stats', () => {
  const counters = (over: Partial<CacheCounters> = {}): CacheCounters => ({
    hits: 0,
    misses: 0,
    loads: 0,
    invalidatedByMessage: 0,
    invalidatedByRecheck: 0,
    entries: 0,
    ...over,
  });

  it('counts hits, misses and loads, one load however many lookups miss at once', async () => {
    await publish(t, 'tnt_a', [policy('api')]);
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t);
    await Promise.all(Array.from({ length: 3 }, () => limitOf(secret)));
    for (let i = 0; i < 4; i += 1) await limitOf(secret);

    expect(setup.engine.cache.stats()).toEqual({
      tenants: counters({ hits: 4, misses: 3, loads: 1, entries: 1 }),
      keys: counters({ hits: 4, misses: 3, loads: 1, entries: 1 }),
    });
  });

  it('counts invalidations by change message and by re-check apart', async () => {
    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 5)] })]);
    const first = await apiKey(t, 'tnt_a');
    const second = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, {
      cacheTuning: { tenantRecheckMs: 600_000, keyRecheckMs: 600_000 },
    });
    await limitOf(first.secret);
    await limitOf(second.secret);

    await publish(t, 'tnt_a', [policy('api', { id: 'pol_api', rules: [bucket('burst', 6)] })]);
    await until(async () => (await limitOf(first.secret)) === 6);
    await revokeApiKey(t.redis, t.prefix, first.secret);
    await until(() => setup!.engine.cache.stats().keys.invalidatedByMessage === 1);
    await publishSilently(t, 'tnt_a', 3, [
      policy('api', { id: 'pol_api', rules: [bucket('burst', 7)] }),
    ]);
    await setup.engine.cache.recheckTenants();
    await t.redis.del(apiKeyKey(t.prefix, hashApiKey(second.secret)));
    await setup.engine.cache.recheckKeys();

    const { tenants, keys } = setup.engine.cache.stats();
    expect(tenants).toMatchObject({ invalidatedByMessage: 1, invalidatedByRecheck: 1 });
    expect(keys).toMatchObject({ invalidatedByMessage: 1, invalidatedByRecheck: 1, entries: 0 });
    // each invalidated tenant version was read again
    await until(() => setup!.engine.cache.stats().tenants.loads === 3);
  });
});
