import { createTestRedis, type TestRedis } from '@sluice/testing';
import type { Queue } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  admitOwnEvent,
  createWebhookQueue,
  deliveryJobSchema,
  ENABLED_ENDPOINTS_FIELD,
  endpointsKey,
  listTenantEndpoints,
  POLICY_PUBLISHED_EVENT,
  publishWebhookEndpoints,
  WebhookStoreError,
  type DeliveryJob,
} from '../src';
import { endpointRecord } from './support';

let t: TestRedis;
let queue: Queue<DeliveryJob>;

beforeEach(() => {
  t = createTestRedis('wh-own');
  queue = createWebhookQueue(t.connect({ maxRetriesPerRequest: null }), t.prefix);
});
afterEach(async () => {
  await queue.close();
  await t.cleanup();
});

const published = (version: number) => ({
  type: POLICY_PUBLISHED_EVENT,
  payload: { tenantId: 'tnt_a', version, publishedAt: '2026-12-03T08:00:00.000Z' },
  idempotencyKey: `${POLICY_PUBLISHED_EVENT}/tnt_a/${version}`,
});

async function jobs(): Promise<DeliveryJob[]> {
  const all = await queue.getJobs(['delayed', 'waiting']);
  return all.map((job) => deliveryJobSchema.parse(job.data));
}

describe('the enabled-endpoints mark', () => {
  it('is in the hash exactly while the tenant has an enabled endpoint, counting them', async () => {
    const key = endpointsKey(t.prefix, 'tnt_a');
    const on = endpointRecord('tnt_a');
    const off = endpointRecord('tnt_a', { enabled: false });
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [on, off]);
    expect(await t.redis.hget(key, ENABLED_ENDPOINTS_FIELD)).toBe('1');
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [on, { ...off, enabled: true }]);
    expect(await t.redis.hget(key, ENABLED_ENDPOINTS_FIELD)).toBe('2');
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [{ ...on, enabled: false }, off]);
    expect(await t.redis.hexists(key, ENABLED_ENDPOINTS_FIELD)).toBe(0);
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', []);
    expect(await t.redis.exists(key)).toBe(0);
  });
});

describe("a tenant's endpoints", () => {
  it('are listed whole, enabled or not, and only its own', async () => {
    const a = [endpointRecord('tnt_a'), endpointRecord('tnt_a', { enabled: false })];
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', a);
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_b', [endpointRecord('tnt_b')]);
    const listed = await listTenantEndpoints(t.redis, t.prefix, 'tnt_a');
    expect(listed.map((endpoint) => [endpoint.id, endpoint.enabled])).toEqual(
      a.map((row) => [row.id, row.enabled]).sort(),
    );
    expect(await listTenantEndpoints(t.redis, t.prefix, 'tnt_c')).toEqual([]);
  });

  it('refuse to be read when Redis holds something else', async () => {
    await t.redis.hset(endpointsKey(t.prefix, 'tnt_a'), 'id:wh_x', '{not json');
    await expect(listTenantEndpoints(t.redis, t.prefix, 'tnt_a')).rejects.toThrow(
      WebhookStoreError,
    );
  });
});

describe("Sluice's own events", () => {
  it('reach every enabled endpoint once, however often they are offered', async () => {
    const on = [endpointRecord('tnt_a'), endpointRecord('tnt_a')];
    const off = endpointRecord('tnt_a', { enabled: false });
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [...on, off]);

    const first = await admitOwnEvent(t.redis, queue, t.prefix, 'tnt_a', published(7));
    expect(first.map((a) => [a.endpointId, a.result.status])).toEqual(
      on.map((row) => [row.id, 'admitted']).sort(),
    );
    const again = await admitOwnEvent(t.redis, queue, t.prefix, 'tnt_a', published(7));
    expect(again.map((a) => a.result)).toEqual(first.map((a) => ({ ...a.result, replayed: true })));

    const queued = await jobs();
    expect(queued.map((job) => job.endpointId).sort()).toEqual(on.map((row) => row.id).sort());
    for (const job of queued) {
      expect(JSON.parse(job.body)).toMatchObject({
        type: POLICY_PUBLISHED_EVENT,
        data: { tenantId: 'tnt_a', version: 7 },
      });
    }
    // another version is another event
    await admitOwnEvent(t.redis, queue, t.prefix, 'tnt_a', published(8));
    expect(await jobs()).toHaveLength(4);
  });

  it('miss an endpoint whose queue is full, and still reach the others', async () => {
    const full = endpointRecord('tnt_a', { queueCapacity: 1, leakRatePerSec: 0.01 });
    const roomy = endpointRecord('tnt_a');
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [full, roomy]);
    await admitOwnEvent(t.redis, queue, t.prefix, 'tnt_a', published(1));

    const second = await admitOwnEvent(t.redis, queue, t.prefix, 'tnt_a', published(2));
    const byEndpoint = new Map(second.map((a) => [a.endpointId, a.result.status]));
    expect(byEndpoint).toEqual(
      new Map([
        [full.id, 'queue-full'],
        [roomy.id, 'admitted'],
      ]),
    );
  });

  it('cost a tenant without endpoints nothing but the lookup', async () => {
    expect(await admitOwnEvent(t.redis, queue, t.prefix, 'tnt_z', published(1))).toEqual([]);
    expect(await jobs()).toEqual([]);
  });
});
