import { createTestRedis } from '@sluice/testing';
import {
  createWebhookQueue,
  deliveryJobSchema,
  encryptSecret,
  generateSigningSecret,
  MAX_PAYLOAD_BYTES,
  publishWebhookEndpoints,
  type DeliveryJob,
  type WebhookEndpointRecord,
} from '@sluice/webhooks';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiKey,
  expectInvalid,
  expectProblem,
  post,
  PROBLEM,
  startApp,
  type Answer,
  type TestApp,
} from './support';

const KEY = randomBytes(32);
let app: TestApp;
let queue: Queue<DeliveryJob>;
let endpointIds = 0;

function endpoint(tenantId: string, over: Partial<WebhookEndpointRecord> = {}) {
  const id = over.id ?? `wh_dp${(endpointIds += 1)}`;
  return {
    id,
    tenantId,
    name: `hooks-${endpointIds}`,
    url: 'https://hooks.example.com/in',
    // the slowest rate allowed (one per 100 s): no event leaks out of the FIFO between a test's
    // requests, however slow the machine
    leakRatePerSec: 0.01,
    queueCapacity: 3,
    maxAttempts: 3,
    enabled: true,
    pausedUntil: null,
    secretCiphertext: encryptSecret(KEY, generateSigningSecret(), { tenantId, endpointId: id }),
    ...over,
  };
}

beforeAll(async () => {
  app = await startApp({}, createTestRedis('dp-webhooks'));
  queue = createWebhookQueue(app.t.connect({ maxRetriesPerRequest: null }), app.t.prefix);
});
afterAll(async () => {
  await queue?.close();
  await app?.close();
});

const send = (secret: string | undefined, body: unknown) =>
  post(app.url, '/v1/webhooks', secret, body);

const accepted = (answer: Answer) => answer.body as { eventId: string; departureAt: number };

describe('POST /v1/webhooks', () => {
  let secret: string;
  let billing: WebhookEndpointRecord;

  beforeEach(async () => {
    const tenantId = `tnt_${(endpointIds += 1)}`;
    secret = await apiKey(app.t, tenantId);
    billing = endpoint(tenantId, { name: 'billing' });
    await publishWebhookEndpoints(app.t.redis, app.t.prefix, tenantId, [billing]);
  });

  it('admits events into the endpoint’s FIFO: 202 with the event id and its departure', async () => {
    const answers = [];
    for (let i = 0; i < 3; i += 1) {
      answers.push(
        await send(secret, { endpoint: 'billing', type: 'invoice.paid', payload: { i } }),
      );
    }

    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({
        eventId: expect.stringMatching(/^evt_/),
        departureAt: expect.any(Number),
      });
    }
    // one per 100 s, in the order they came
    const departures = answers.map((answer) => accepted(answer).departureAt);
    expect(departures[1]! - departures[0]!).toBeGreaterThanOrEqual(99_999);
    expect(departures[1]! - departures[0]!).toBeLessThanOrEqual(100_001);
    expect(departures[2]! - departures[1]!).toBeGreaterThanOrEqual(99_999);
    const job = await queue.getJob(accepted(answers[2]!).eventId);
    const data = deliveryJobSchema.parse(job?.data);
    expect(data).toMatchObject({ endpointId: billing.id, tenantId: billing.tenantId });
    expect(JSON.parse(data.body)).toEqual({
      id: accepted(answers[2]!).eventId,
      type: 'invoice.paid',
      createdAt: expect.any(String),
      data: { i: 2 },
    });
  });

  it('answers 429 problem+json with Retry-After when the queue is full, and enqueues nothing', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await send(secret, { endpoint: billing.id, type: 'a.b', payload: i })).status).toBe(
        202,
      );
    }
    const before = await queue.count();

    const full = await send(secret, { endpoint: billing.id, type: 'a.b', payload: 3 });

    expectProblem(full, 429, `${PROBLEM}webhook-queue-full`);
    expect(full.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(full.body).toMatchObject({ 'retry-after-ms': expect.any(Number) });
    expect(await queue.count()).toBe(before);
  });

  it('answers a repeated idempotency key with the first answer, once', async () => {
    const body = {
      endpoint: 'billing',
      type: 'order.created',
      payload: { id: 7 },
      idempotencyKey: 'order-7',
    };
    const first = await send(secret, body);
    const before = await queue.count();
    const again = await send(secret, body);

    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await queue.count()).toBe(before);
    expectProblem(
      await send(secret, { ...body, payload: { id: 8 } }),
      409,
      `${PROBLEM}idempotency-key-conflict`,
    );
  });

  it('finds only the key’s own tenant’s endpoints', async () => {
    const other = await apiKey(app.t, 'tnt_other');
    await publishWebhookEndpoints(app.t.redis, app.t.prefix, 'tnt_other', [
      endpoint('tnt_other', { name: 'mine' }),
    ]);

    expectProblem(
      await send(other, { endpoint: billing.id, type: 'a.b', payload: 1 }),
      404,
      `${PROBLEM}webhook-endpoint-not-found`,
    );
    expectProblem(
      await send(other, { endpoint: 'billing', type: 'a.b', payload: 1 }),
      404,
      `${PROBLEM}webhook-endpoint-not-found`,
    );
    expectProblem(
      await send(secret, { endpoint: 'mine', type: 'a.b', payload: 1 }),
      404,
      `${PROBLEM}webhook-endpoint-not-found`,
    );
    expect((await send(other, { endpoint: 'mine', type: 'a.b', payload: 1 })).status).toBe(202);
  });

  it('refuses a disabled endpoint (409) and a missing key (401)', async () => {
    const tenantId = billing.tenantId;
    await publishWebhookEndpoints(app.t.redis, app.t.prefix, tenantId, [
      { ...billing, enabled: false },
    ]);
    expectProblem(
      await send(secret, { endpoint: 'billing', type: 'a.b', payload: 1 }),
      409,
      `${PROBLEM}webhook-endpoint-disabled`,
    );
    expectProblem(
      await send(undefined, { endpoint: 'billing', type: 'a.b', payload: 1 }),
      401,
      `${PROBLEM}unauthorized`,
    );
  });

  it('names every rejected field (400), and enqueues nothing', async () => {
    const before = await queue.count();
    expectInvalid(await send(secret, { type: 'has space', extra: true }), [
      { field: 'endpoint', message: 'is required' },
      { field: 'type' },
      { field: 'payload', message: 'is required (any JSON value; null for none)' },
      { field: 'extra', message: 'unknown field' },
    ]);
    expectInvalid(
      await send(secret, {
        endpoint: 'billing',
        type: 'a.b',
        payload: 'x'.repeat(MAX_PAYLOAD_BYTES),
        idempotencyKey: 'has space',
      }),
      [{ field: 'payload' }, { field: 'idempotencyKey' }],
    );
    expectInvalid(await send(secret, '[1]'), [{ field: 'body', message: 'must be a JSON object' }]);
    expect(await queue.count()).toBe(before);
  });

  it('refuses a body above its own limit with a 413 naming that limit', async () => {
    const answer = await send(secret, {
      endpoint: 'billing',
      type: 'a.b',
      payload: 'x'.repeat(MAX_PAYLOAD_BYTES + 8192),
    });
    expectProblem(answer, 413, 'about:blank');
    expect((answer.body as { detail: string }).detail).toBe(
      `The request body is larger than ${MAX_PAYLOAD_BYTES + 4096} bytes.`,
    );
  });
});
