import { generateApiKeySecret } from '@sluice/policy';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  DecisionEngine,
  engineRedisOptions,
  PolicyCache,
  UnavailableError,
  type PolicyCacheTuning,
} from '../src/index';
import { apiKey, EventLog, QUIET_CACHE, ready, recordCommands } from './support';

let t: TestRedis;
let cache: PolicyCache | undefined;
beforeEach(() => {
  t = createTestRedis('engine-keys');
});
afterEach(async () => {
  await cache?.stop();
  cache = undefined;
  await t.cleanup();
});

interface Setup {
  engine: DecisionEngine;
  cache: PolicyCache;
  /** The cache's own connection (no offline queue: refused at once once closed). */
  reads: Redis;
}

/** An engine whose key cache reads over a connection of its own, which a test may close. */
async function start(tuning: PolicyCacheTuning): Promise<Setup> {
  const reads = await ready(t.connect(engineRedisOptions));
  // no background re-reads unless asked: the tests count the reads they cause
  cache = new PolicyCache({
    ...QUIET_CACHE,
    ...tuning,
    redis: reads,
    subscriber: t.connect(),
    prefix: t.prefix,
  });
  await cache.start();
  const engine = new DecisionEngine({
    redis: await ready(t.connect(engineRedisOptions)),
    cache,
    prefix: t.prefix,
    recorder: new EventLog(),
  });
  return { engine, cache, reads };
}

const unknownTokens = (count: number) => Array.from({ length: count }, generateApiKeySecret);

describe('API key cache eviction', () => {
  it('a flood of unknown bearer tokens pushes out no valid key, which still authenticates with Redis unreachable', async () => {
    const maxKeys = 50;
    const { engine, reads } = await start({ maxKeys });
    const { secret, record } = await apiKey(t, 'tnt_a');
    expect(await engine.authenticate(secret)).toEqual(record);

    for (const token of unknownTokens(maxKeys * 3)) {
      await expect(engine.authenticate(token)).rejects.toThrow(AuthenticationError);
    }

    // still cached: answered from memory, without a Redis read
    const commands = recordCommands(reads);
    expect(engine.authenticateCached(secret)).toEqual(record);
    expect(await engine.authenticate(secret)).toEqual(record);
    expect(commands).toEqual([]);

    reads.disconnect();
    // the cache really cannot read: an uncached token is a 503
    await expect(engine.authenticate(generateApiKeySecret())).rejects.toThrow(UnavailableError);
    expect(await engine.authenticate(secret)).toEqual(record);
  });

  it('evicts by recent use: a key used again outlives one loaded after it', async () => {
    const { engine } = await start({ maxKeys: 3 });
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => apiKey(t, 'tnt_a')));
    for (const key of [a, b, c]) await engine.authenticate(key!.secret);
    // a is used again, b is not: b goes first
    expect(engine.authenticateCached(a!.secret)).toEqual(a!.record);
    await engine.authenticate(d!.secret);

    expect([a, b, c, d].map((key) => engine.authenticateCached(key!.secret)?.id)).toEqual([
      a!.record.id,
      undefined,
      c!.record.id,
      d!.record.id,
    ]);
  });

  it('evicts the oldest when every key was used again, never the key just loaded', async () => {
    const { engine } = await start({ maxKeys: 2 });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => apiKey(t, 'tnt_a')));
    for (const key of [a, b]) await engine.authenticate(key!.secret);
    for (const key of [b, a]) expect(engine.authenticateCached(key!.secret)).toBeDefined();
    await engine.authenticate(c!.secret);

    expect([a, b, c].map((key) => engine.authenticateCached(key!.secret)?.id)).toEqual([
      undefined,
      b!.record.id,
      c!.record.id,
    ]);
  });

  it('remembers unknown keys apart, at most maxUnknownKeys of them, the latest', async () => {
    const { engine, cache, reads } = await start({ maxKeys: 50, maxUnknownKeys: 5 });
    const { secret } = await apiKey(t, 'tnt_a');
    await engine.authenticate(secret);
    const tokens = unknownTokens(20);
    for (const token of tokens) await expect(engine.authenticate(token)).rejects.toThrow();
    expect(cache.stats().keys.entries).toBe(1 + 5);

    const commands = recordCommands(reads);
    // the latest is answered from memory, the first is read again
    await expect(engine.authenticate(tokens[19])).rejects.toThrow(AuthenticationError);
    expect(commands).toEqual([]);
    await expect(engine.authenticate(tokens[0])).rejects.toThrow(AuthenticationError);
    expect(commands).toEqual(['get']);
  });
});
