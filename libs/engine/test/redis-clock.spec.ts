import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisClock } from '../src/redis-clock';
import { apiKey, bucket, policy, publish, startEngine } from './support';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('engine-clock');
});
afterEach(() => t.cleanup());

const redisMs = async (): Promise<number> => {
  const [seconds, micros] = await t.redis.time();
  return Number(seconds) * 1000 + Number(micros) / 1000;
};

describe('RedisClock', () => {
  it('reads the Redis clock within half the round trip of its best sample', async () => {
    const clock = new RedisClock(t.redis);
    expect(clock.uncertaintyMs).toBeUndefined();
    await clock.sync();
    const uncertainty = clock.uncertaintyMs!;
    expect(uncertainty).toBeGreaterThanOrEqual(0);
    const before = await redisMs();
    const estimate = clock.now();
    const after = await redisMs();
    expect(estimate).toBeGreaterThanOrEqual(before - uncertainty);
    expect(estimate).toBeLessThanOrEqual(after + uncertainty);
  });

  it("gives the engine's deadlines: an engine clock years behind still decides in Redis", async () => {
    const setup = await startEngine(t, { clock: () => Date.UTC(2001, 0, 1) });
    try {
      await publish(t, 'tnt_a', [policy('api', { failMode: 'open', rules: [bucket('burst', 3)] })]);
      const { record } = await apiKey(t, 'tnt_a');
      const result = await setup.engine.check({ key: record, policy: 'api', identifier: 'u' });
      expect(result).toMatchObject({ reason: 'allowed', remaining: 2 });
    } finally {
      await setup.engine.stop();
    }
  });
});
