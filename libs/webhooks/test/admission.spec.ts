import { createTestRedis, type TestRedis } from '@sluice/testing';
import type { Queue } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  admitWebhookEvent,
  createWebhookQueue,
  deliveryJobSchema,
  endpointKeys,
  MAX_PAYLOAD_BYTES,
  toPublishedEndpoint,
  WebhookInputError,
  type AdmissionResult,
  type DeliveryJob,
  type PublishedEndpoint,
} from '../src';
import { endpointRecord } from './support';

let t: TestRedis;
let queue: Queue<DeliveryJob>;

beforeEach(() => {
  t = createTestRedis('wh-admit');
  queue = createWebhookQueue(t.connect({ maxRetriesPerRequest: null }), t.prefix);
});
afterEach(async () => {
  await queue.close();
  await t.cleanup();
});

const endpoint = (over: Parameters<typeof endpointRecord>[1] = {}): PublishedEndpoint =>
  toPublishedEndpoint(endpointRecord('tnt_a', over));

const admit = (target: PublishedEndpoint, input = {}, to: Queue<DeliveryJob> = queue) =>
  admitWebhookEvent(t.redis, to, t.prefix, 'tnt_a', target, {
    type: 'invoice.paid',
    payload: { n: 1 },
    ...input,
  });

function admitted(result: AdmissionResult) {
  if (result.status !== 'admitted') throw new Error(`not admitted: ${JSON.stringify(result)}`);
  return result;
}

describe('admission through the leaky bucket', () => {
  it('gives each event its departure in the FIFO, one emission interval apart, as a delayed job', async () => {
    // 10 s apart: the FIFO never drains between two admissions, however slow the machine, so
    // each event queues behind the one before
    const target = endpoint({ leakRatePerSec: 0.1, queueCapacity: 10 });
    const results = [];
    for (let i = 0; i < 10; i += 1) results.push(admitted(await admit(target, { payload: { i } })));

    const departures = results.map((r) => r.departureAt);
    for (let i = 1; i < departures.length; i += 1) {
      // the schedule is exact in microseconds; departures are rounded up to the ms
      expect(departures[i]! - departures[i - 1]!).toBeGreaterThanOrEqual(9_999);
      expect(departures[i]! - departures[i - 1]!).toBeLessThanOrEqual(10_001);
    }
    const jobs = await Promise.all(results.map((r) => queue.getJob(r.eventId)));
    for (const [i, job] of jobs.entries()) {
      const data = deliveryJobSchema.parse(job?.data);
      expect(data).toMatchObject({
        eventId: results[i]!.eventId,
        endpointId: target.id,
        attempts: 0,
      });
      expect(JSON.parse(data.body)).toMatchObject({
        id: results[i]!.eventId,
        type: 'invoice.paid',
        data: { i },
      });
      // due at its departure (BullMQ: added at `timestamp`, due `delay` later), or at once
      // when that is already past (the first one leaves now)
      const due = Math.max(data.departureAt, job!.timestamp);
      expect(job!.timestamp + job!.delay).toBe(due);
    }
    expect(await t.redis.zcard(endpointKeys(t.prefix, 'tnt_a', target.id).pending)).toBe(10);
  });

  it('refuses an event when the FIFO is full, saying when there will be room', async () => {
    // 100 s apart: nothing leaks out during the test, however slow the machine
    const target = endpoint({ leakRatePerSec: 0.01, queueCapacity: 2 });
    admitted(await admit(target));
    admitted(await admit(target));

    const full = await admit(target);

    expect(full.status).toBe('queue-full');
    // room again once the first event has leaked out: within one interval
    const retryAfterMs = (full as { retryAfterMs: number }).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(100_000);
    expect(await queue.count()).toBe(2);
  });

  it('refunds the admission when the job cannot be added', async () => {
    // 100 s apart: the whole test runs well inside one interval, however slow the machine
    const target = endpoint({ leakRatePerSec: 0.01, queueCapacity: 5 });
    const first = admitted(await admit(target));
    // a queue whose Redis is unreachable (nothing listens on port 1)
    const unreachable = createWebhookQueue(
      { host: '127.0.0.1', port: 1, maxRetriesPerRequest: null, retryStrategy: () => null },
      t.prefix,
    );
    unreachable.on('error', () => undefined);

    await expect(admit(target, {}, unreachable)).rejects.toThrow();
    await unreachable.close().catch(() => undefined);
    const next = admitted(await admit(target));

    // the failed event's place went back: the next one leaves right after the first (one
    // interval, not two)
    expect(next.departureAt - first.departureAt).toBeLessThan(200_000 - 1);
    expect(next.departureAt - first.departureAt).toBeGreaterThanOrEqual(99_999);
    const pending = await t.redis.zrange(endpointKeys(t.prefix, 'tnt_a', target.id).pending, 0, -1);
    expect(pending.sort()).toEqual([first.eventId, next.eventId].sort());
    expect(await queue.count()).toBe(2);
  });

  it('answers a repeated idempotency key with the first answer and enqueues nothing', async () => {
    const target = endpoint();
    const first = admitted(await admit(target, { idempotencyKey: 'order-42' }));
    const again = await admit(target, { idempotencyKey: 'order-42' });

    expect(again).toEqual({ ...first, replayed: true });
    expect(await queue.count()).toBe(1);
    expect(await admit(target, { idempotencyKey: 'order-42', payload: { n: 2 } })).toEqual({
      status: 'idempotency-conflict',
      reason: 'mismatch',
    });
    expect(admitted(await admit(target, { idempotencyKey: 'order-43' })).eventId).not.toBe(
      first.eventId,
    );
  });

  it('does not remember a refused request under its idempotency key', async () => {
    // 100 s apart: the FIFO stays full during the test, however slow the machine
    const target = endpoint({ leakRatePerSec: 0.01, queueCapacity: 1 });
    admitted(await admit(target));
    expect((await admit(target, { idempotencyKey: 'k1' })).status).toBe('queue-full');
    // another endpoint with room: the key was freed, so the same request goes through
    const other = endpoint();
    expect(admitted(await admit(other, { idempotencyKey: 'k1' })).replayed).toBe(false);
  });

  it('refuses a disabled endpoint and bad input without touching the queue', async () => {
    expect(await admit(endpoint({ enabled: false }))).toEqual({ status: 'disabled' });
    const target = endpoint();
    await expect(admit(target, { type: 'has space' })).rejects.toThrow(WebhookInputError);
    await expect(
      admit(target, { payload: { big: 'x'.repeat(MAX_PAYLOAD_BYTES) } }),
    ).rejects.toThrow('payload');
    await expect(admit(target, { idempotencyKey: '' })).rejects.toThrow('idempotencyKey');
    expect(await queue.count()).toBe(0);
  });
});
