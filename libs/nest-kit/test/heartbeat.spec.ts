import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HEARTBEAT_RETAIN_MS,
  heartbeatIndexKey,
  heartbeatKey,
  HeartbeatWriter,
  readHeartbeats,
  redisTimeMs,
} from '../src';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('heartbeat');
});
afterEach(async () => {
  await t.cleanup();
});

const queues = {
  queues: [{ name: 'q', running: true, waiting: 1, active: 0, delayed: 0, failed: 0 }],
};

describe('heartbeats', () => {
  it('writes a beat at start, lists it live, and removes it at stop', async () => {
    const writer = new HeartbeatWriter({
      redis: t.redis,
      prefix: t.prefix,
      service: 'worker',
      version: '9.9.9',
      intervalMs: 60_000,
      collect: () => queues,
    });
    writer.start();
    let listed = await readHeartbeats(t.redis, t.prefix, 'worker');
    while (listed.length === 0) listed = await readHeartbeats(t.redis, t.prefix, 'worker');

    expect(listed).toEqual([
      {
        instance: writer.instance,
        lastSeenAt: expect.any(Number),
        live: true,
        beat: expect.objectContaining({ version: '9.9.9', intervalMs: 60_000, details: queues }),
      },
    ]);
    expect(await t.redis.pttl(heartbeatKey(t.prefix, 'worker', writer.instance))).toBeGreaterThan(
      HEARTBEAT_RETAIN_MS - 60_000,
    );
    await writer.stop();
    expect(await readHeartbeats(t.redis, t.prefix, 'worker')).toEqual([]);
  });

  it('lists a beat of another format without its details, and forgets beats past the retention', async () => {
    const now = await redisTimeMs(t.redis);
    await t.redis.set(
      heartbeatKey(t.prefix, 'data-plane', 'next-release'),
      JSON.stringify({ format: 2, instance: 'next-release' }),
    );
    await t.redis.zadd(heartbeatIndexKey(t.prefix), now, 'data-plane:next-release');
    await t.redis.zadd(
      heartbeatIndexKey(t.prefix),
      now - HEARTBEAT_RETAIN_MS - 1,
      'data-plane:old',
    );

    expect(await readHeartbeats(t.redis, t.prefix, 'data-plane')).toEqual([
      { instance: 'next-release', lastSeenAt: now, live: true, beat: undefined },
    ]);
  });

  it('reports a failing beat once, until one succeeds again', async () => {
    const errors: unknown[] = [];
    let fail = true;
    let calls = 0;
    const writer = new HeartbeatWriter({
      redis: t.redis,
      prefix: t.prefix,
      service: 'worker',
      version: '1',
      intervalMs: 1000,
      collect: () => {
        calls += 1;
        if (fail) throw new Error('collect failed');
        return queues;
      },
      onError: (error) => errors.push(error),
    });
    writer.start();
    while (calls < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors).toHaveLength(1);
    fail = false;
    while ((await readHeartbeats(t.redis, t.prefix, 'worker')).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await writer.stop();
    expect(errors).toHaveLength(1);
  });
});
