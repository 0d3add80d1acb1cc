import { newId } from '@sluice/db';
import { readTenant } from '@sluice/policy';
import {
  createWebhookQueue,
  deliveryJobSchema,
  readWebhookEndpoint,
  type DeliveryJob,
} from '@sluice/webhooks';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, gql, operator, planWithApi, published, tenantOn } from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';

// After the relay publishes a tenant's new version, its enabled webhook endpoints are sent
// `sluice.policy.published`: admitted to each endpoint's queue (the worker delivers from there).

let app: TestApp;
let op: string;
let queue: Queue<DeliveryJob>;

beforeAll(async () => {
  app = await startTestApp({
    SLUICE_SECRETS_KEY: randomBytes(32).toString('base64'),
    SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  });
  op = (await operator(app)).token;
  queue = createWebhookQueue(app.redis.connect({ maxRetriesPerRequest: null }), app.redis.prefix);
});
afterAll(async () => {
  await queue?.close();
  await app?.close();
});

const CREATE_ENDPOINT = /* GraphQL */ `
  mutation ($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      endpoint {
        id
      }
    }
  }
`;
const UPDATE_ENDPOINT = /* GraphQL */ `
  mutation ($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) {
      id
    }
  }
`;
const CHANGE = /* GraphQL */ `
  mutation ($input: ChangePlanPolicyInput!) {
    changePlanPolicy(input: $input) {
      version
    }
  }
`;

let names = 0;
async function endpoint(tenantId: string, enabled = true): Promise<string> {
  const { createWebhookEndpoint } = await gql<{
    createWebhookEndpoint: { endpoint: { id: string } };
  }>(app, op, CREATE_ENDPOINT, {
    input: {
      tenantId,
      name: `hooks-${(names += 1)}`,
      url: 'http://127.0.0.1:9/hooks',
      leakRatePerSec: 5,
      queueCapacity: 100,
      enabled,
    },
  });
  return createWebhookEndpoint.endpoint.id;
}

async function changeBurst(tenantId: string, capacity: number): Promise<number> {
  const { changePlanPolicy } = await gql<{ changePlanPolicy: { version: number } }>(
    app,
    op,
    CHANGE,
    { input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity }] } },
  );
  return changePlanPolicy.version;
}

interface PolicyEvent {
  endpointId: string;
  type: string;
  data: { tenantId: string; version: number; publishedAt: string };
}

/** The events waiting in the webhook queue (no worker runs here), oldest first. */
async function queued(): Promise<PolicyEvent[]> {
  const jobs = await queue.getJobs(['delayed', 'waiting', 'prioritized']);
  return jobs
    .map((job) => deliveryJobSchema.parse(job.data))
    .sort((a, b) => a.admittedAt - b.admittedAt)
    .map((job) => {
      const body = JSON.parse(job.body) as Omit<PolicyEvent, 'endpointId'>;
      return { endpointId: job.endpointId, type: body.type, data: body.data };
    });
}

describe('sluice.policy.published', () => {
  it("reaches the tenant's enabled endpoints once per new version, and nobody else", async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    await published(app, tenantId, 1);
    const on = await endpoint(tenantId);
    const off = await endpoint(tenantId, false);
    // a tenant written without the API: its version 1 is made when it is first published, with
    // the endpoint beside it; the configuration it starts with is not announced
    const other = newId('tenant');
    await app.prisma.tenant.create({
      data: { id: other, slug: other.replace('_', '-'), name: 'Other', planId },
    });
    const elsewhere = await endpoint(other);
    await published(app, other, 1);
    await eventually(
      'the endpoints published',
      () =>
        Promise.all([
          readWebhookEndpoint(app.redis.redis, app.redis.prefix, tenantId, off),
          readWebhookEndpoint(app.redis.redis, app.redis.prefix, other, elsewhere),
        ]),
      (endpoints) => endpoints.every((found) => found !== undefined),
    );
    // endpoints alone write no version, and a first version announces nothing
    expect(await queued()).toEqual([]);

    const version = await changeBurst(tenantId, 7);
    expect(version).toBe(2);
    const events = await eventually('the event admitted', queued, (found) => found.length > 0);
    const redis = await readTenant(app.redis.redis, app.redis.prefix, tenantId);
    expect(redis?.version).toBe(2);
    expect(events).toEqual([
      {
        endpointId: on,
        type: 'sluice.policy.published',
        data: { tenantId, version: 2, publishedAt: new Date(redis!.publishedAt).toISOString() },
      },
    ]);

    // a publish without a new version (the endpoint renamed) sends nothing more
    await gql(app, op, UPDATE_ENDPOINT, { input: { id: on, name: 'renamed' } });
    await eventually(
      'the rename published',
      () => readWebhookEndpoint(app.redis.redis, app.redis.prefix, tenantId, on),
      (found) => found?.name === 'renamed',
    );
    expect(await queued()).toHaveLength(1);

    // the next version is the next event; the other tenant's changes reach only its endpoint
    expect(await changeBurst(tenantId, 8)).toBe(3);
    expect(await changeBurst(other, 9)).toBe(2);
    const all = await eventually('two more events', queued, (found) => found.length >= 3);
    expect(all.map((event) => [event.endpointId, event.data.tenantId, event.data.version])).toEqual(
      expect.arrayContaining([
        [on, tenantId, 2],
        [on, tenantId, 3],
        [elsewhere, other, 2],
      ]),
    );
    expect(all).toHaveLength(3);
  });
});
