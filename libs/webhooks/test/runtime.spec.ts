import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bookSendSlot,
  endpointKeys,
  readEndpointRuntime,
  readQueueStats,
  recordOutcome,
  releaseInFlightLease,
  takeInFlightLease,
  type OutcomeOptions,
} from '../src';

let t: TestRedis;

beforeEach(() => {
  t = createTestRedis('wh-runtime');
});
afterEach(async () => {
  await t.cleanup();
});

const options: OutcomeOptions = {
  retryAfterMs: 0,
  failureThreshold: 3,
  failurePauseMs: 1000,
  maxPauseMs: 60_000,
  deadLetterRetentionMs: 86_400_000,
};

const record = (outcome: 'delivered' | 'retry' | 'dead', eventId: string, over = {}) =>
  recordOutcome(t.redis, t.prefix, 'tnt_a', 'wh_1', outcome, eventId, { ...options, ...over });

async function redisNow(): Promise<number> {
  return Math.floor((await redisNowUs()) / 1000);
}

/** The Redis clock (the scripts' clock) in microseconds. */
async function redisNowUs(): Promise<number> {
  const [seconds, micros] = await t.redis.time();
  return Number(seconds) * 1_000_000 + Number(micros);
}

describe('delivery bookkeeping', () => {
  it('pauses the endpoint after repeated failures, doubling, until a delivery resets the run', async () => {
    const keys = endpointKeys(t.prefix, 'tnt_a', 'wh_1');
    await t.redis.zadd(keys.pending, 1, 'evt_a', 2, 'evt_b');

    expect(await record('retry', 'evt_a')).toEqual({ pausedUntil: 0, failures: 1 });
    expect((await record('retry', 'evt_a')).pausedUntil).toBe(0);
    const before = await redisNow();
    const third = await record('retry', 'evt_a');
    expect(third.failures).toBe(3);
    expect(third.pausedUntil - before).toBeGreaterThanOrEqual(1000);
    const fourth = await record('retry', 'evt_b');
    expect(fourth.pausedUntil - third.pausedUntil).toBeGreaterThanOrEqual(1000);
    expect(await readEndpointRuntime(t.redis, t.prefix, 'tnt_a', 'wh_1')).toEqual(fourth);

    const delivered = await record('delivered', 'evt_a');
    // the pause already set stays; the run of failures starts again
    expect(delivered).toEqual({ pausedUntil: fourth.pausedUntil, failures: 0 });
    expect(await t.redis.zrange(keys.pending, 0, -1)).toEqual(['evt_b']);
  });

  it("honours the receiver's Retry-After, and a pause never shrinks", async () => {
    const before = await redisNow();
    // 30 s: the short pause below ends before it, however slowly the calls follow each other
    const long = await record('retry', 'evt_a', { retryAfterMs: 30_000 });
    expect(long.pausedUntil - before).toBeGreaterThanOrEqual(30_000);
    const short = await record('retry', 'evt_a', { retryAfterMs: 100 });
    expect(short.pausedUntil).toBe(long.pausedUntil);
    const capped = await record('retry', 'evt_a', { retryAfterMs: 10_000_000 });
    const after = await redisNow();
    // capped at maxPauseMs from when it was recorded, between `before` and `after`
    expect(capped.pausedUntil - before).toBeGreaterThanOrEqual(60_000);
    expect(capped.pausedUntil - after).toBeLessThanOrEqual(60_000);
  });

  it('moves a dead event from pending to the dead letters, and counts everything', async () => {
    const keys = endpointKeys(t.prefix, 'tnt_a', 'wh_1');
    await t.redis.zadd(keys.pending, Date.now() - 5000, 'evt_old', Date.now(), 'evt_new');
    await record('retry', 'evt_old');
    await record('dead', 'evt_old');
    await record('delivered', 'evt_new');

    expect(await t.redis.zrange(keys.dead, 0, -1)).toEqual(['evt_old']);
    const [stats] = await readQueueStats(t.redis, t.prefix, 'tnt_a', ['wh_1']);
    expect(stats).toMatchObject({
      endpointId: 'wh_1',
      depth: 0,
      inFlight: 0,
      delivered: 1,
      failed: 2,
      dead: 1,
      oldestWaitingMs: null,
      consecutiveFailures: 0,
    });
  });

  it('reports depth and the oldest waiting age', async () => {
    const keys = endpointKeys(t.prefix, 'tnt_a', 'wh_1');
    const now = Date.now();
    await t.redis.zadd(keys.pending, now - 3000, 'evt_1', now - 1000, 'evt_2');
    const [stats] = await readQueueStats(t.redis, t.prefix, 'tnt_a', ['wh_1'], now);
    expect(stats).toMatchObject({ depth: 2, oldestWaitingMs: 3000, pausedUntil: null });
  });
});

describe('dispatch schedule and in-flight slots', () => {
  it('books send slots one emission interval apart, whatever arrives together', async () => {
    // 10 s apart: the calls, however slow, take far less than an interval
    const endpoint = { id: 'wh_1', leakRatePerSec: 0.1 };
    const delays = [];
    // on the Redis clock, which the script reads: the calls run between these two readings
    const startedUs = await redisNowUs();
    for (let i = 0; i < 4; i += 1) {
      delays.push((await bookSendSlot(t.redis, t.prefix, 'tnt_a', endpoint)).delayMs);
    }
    const elapsedMs = ((await redisNowUs()) - startedUs) / 1000;
    // slot i is i × 10 s after the first, less the time that passed since the first call
    expect(delays[0]).toBe(0);
    for (let i = 1; i < 4; i += 1) {
      expect(delays[i]).toBeLessThanOrEqual(i * 10_000);
      expect(delays[i]).toBeGreaterThanOrEqual(i * 10_000 - Math.ceil(elapsedMs));
    }
  });

  it('holds at most the limit of deliveries in flight, and frees a slot on release', async () => {
    // leases that outlive any stall of the test: none frees itself before the checks
    const take = () => takeInFlightLease(t.redis, t.prefix, 'tnt_a', 'wh_1', 2, 600_000);
    const a = await take();
    const b = await take();
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(await take()).toBeUndefined();
    const [stats] = await readQueueStats(t.redis, t.prefix, 'tnt_a', ['wh_1']);
    expect(stats?.inFlight).toBe(2);

    await releaseInFlightLease(t.redis, t.prefix, 'tnt_a', 'wh_1', a!);
    expect(await take()).toBeDefined();
  });
});
