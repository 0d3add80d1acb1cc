import { newId } from '@sluice/db';
import {
  admitWebhookEvent,
  createWebhookQueue,
  decryptSecret,
  endpointKeys,
  readWebhookEndpoint,
  recordOutcome,
  type DeliveryJob,
} from '@sluice/webhooks';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { GraphQLFormattedError } from 'graphql';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createUser,
  type GraphqlBody,
  loginWithBearer,
  startTestApp,
  type TestApp,
  type TestTenant,
} from './support/test-app';
import { eventually } from './support/policies';

const SECRETS_KEY = randomBytes(32);

const ENDPOINT = /* GraphQL */ `
  fragment Endpoint on WebhookEndpoint {
    id
    tenantId
    name
    url
    leakRatePerSec
    queueCapacity
    maxAttempts
    enabled
    previousSecretExpiresAt
  }
`;
const CREATE = `mutation Create($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { ...Endpoint } } } ${ENDPOINT}`;
const UPDATE = `mutation Update($input: UpdateWebhookEndpointInput!) {
  updateWebhookEndpoint(input: $input) { ...Endpoint } } ${ENDPOINT}`;
const DELETE = `mutation Delete($id: ID!) { deleteWebhookEndpoint(id: $id) }`;
const ROTATE = `mutation Rotate($id: ID!, $keep: Int) {
  rotateWebhookEndpointSecret(id: $id, keepPreviousSeconds: $keep) { secret endpoint { ...Endpoint } } } ${ENDPOINT}`;
const LIST = `query List($tenantId: ID!) { webhookEndpoints(tenantId: $tenantId) { ...Endpoint } } ${ENDPOINT}`;
const QUEUE = /* GraphQL */ `
  query Queue($id: ID!) {
    webhookEndpoint(id: $id) {
      id
      queue {
        depth
        leakRatePerSec
        inFlight
        delivered
        failed
        dead
        oldestWaitingMs
        pausedUntil
        timeToDrainMs
        recentDeliveries {
          eventId
          attempt
          status
          responseCode
          error
        }
        deadLetters {
          eventId
          eventType
          lastError
        }
      }
    }
  }
`;
const REPLAY_ONE = `mutation ReplayOne($endpointId: ID!, $eventId: ID!) {
  replayWebhookDeadLetter(endpointId: $endpointId, eventId: $eventId) { replayed missing remaining } }`;
const REPLAY_ALL = `mutation ReplayAll($endpointId: ID!, $since: DateTime) {
  replayWebhookDeadLetters(endpointId: $endpointId, since: $since) { replayed missing remaining } }`;

interface Endpoint {
  id: string;
  tenantId: string;
  name: string;
  url: string;
  leakRatePerSec: number;
  queueCapacity: number;
  maxAttempts: number;
  enabled: boolean;
  previousSecretExpiresAt: string | null;
}

type Role = 'operator' | 'adminA' | 'viewerA' | 'adminB';

let app: TestApp;
let tenantA: TestTenant;
let tenantB: TestTenant;
const tokens = {} as Record<Role, string>;
let names = 0;

beforeAll(async () => {
  app = await startTestApp({
    CONTROL_PLANE_LOGIN_IP_LIMIT: '1000',
    SLUICE_SECRETS_KEY: SECRETS_KEY.toString('base64'),
    // what the tests' receivers would use; nothing else that is not public
    SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  });
  tenantA = await createTenant(app.prisma, { name: 'Acme' });
  tenantB = await createTenant(app.prisma, { name: 'Bolt' });
  const users = {
    operator: await createUser(app.prisma),
    adminA: await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId: tenantA.id }],
    }),
    viewerA: await createUser(app.prisma, {
      memberships: [{ role: 'tenant_viewer', tenantId: tenantA.id }],
    }),
    adminB: await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId: tenantB.id }],
    }),
  };
  for (const role of Object.keys(users) as Role[]) {
    tokens[role] = await loginWithBearer(app, users[role]);
  }
});
afterAll(() => app?.close());

function dataOf<T>(body: GraphqlBody<T>): T {
  expect(body.errors).toBeUndefined();
  return body.data!;
}

function errorOf(body: GraphqlBody<unknown>): GraphQLFormattedError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0]!;
}

const as = (role: Role) => ({ bearer: tokens[role] });

async function create(input: Record<string, unknown> = {}, role: Role = 'adminA') {
  const response = await app.graphql<{
    createWebhookEndpoint: { secret: string; endpoint: Endpoint };
  }>(
    CREATE,
    {
      input: {
        tenantId: tenantA.id,
        name: `hooks-${(names += 1)}`,
        url: 'http://127.0.0.1:9/hooks',
        leakRatePerSec: 5,
        queueCapacity: 100,
        ...input,
      },
    },
    as(role),
  );
  return response.body;
}

/** Waits for the outbox relay to have published every endpoint row of the tenant to Redis. */
async function publish(tenantId: string): Promise<void> {
  const rows = await app.prisma.webhookEndpoint.findMany({ where: { tenantId } });
  await eventually(
    `tenant ${tenantId}'s endpoints published`,
    () =>
      Promise.all(
        rows.map((row) => readWebhookEndpoint(app.redis.redis, app.redis.prefix, tenantId, row.id)),
      ),
    (published) =>
      published.every(
        (endpoint, i) => endpoint?.url === rows[i]?.url && endpoint?.enabled === rows[i]?.enabled,
      ),
  );
}

describe('webhook endpoints over GraphQL', () => {
  it('creates an endpoint whose secret is shown once and stored only encrypted', async () => {
    const { secret, endpoint } = dataOf(
      await create({ name: 'billing', leakRatePerSec: 0.5, maxAttempts: 4 }),
    ).createWebhookEndpoint;

    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(endpoint).toMatchObject({
      tenantId: tenantA.id,
      name: 'billing',
      url: 'http://127.0.0.1:9/hooks',
      leakRatePerSec: 0.5,
      queueCapacity: 100,
      maxAttempts: 4,
      enabled: true,
      previousSecretExpiresAt: null,
    });
    const row = await app.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const stored = Buffer.from(row.secretCiphertext);
    expect(stored.includes(Buffer.from(secret))).toBe(false);
    expect(stored.includes(Buffer.from(secret.slice('whsec_'.length)))).toBe(false);
    const owner = { tenantId: tenantA.id, endpointId: endpoint.id };
    expect(decryptSecret(SECRETS_KEY, row.secretCiphertext, owner)).toBe(secret);

    const audit = await app.prisma.auditLog.findFirstOrThrow({
      where: { entityId: endpoint.id, action: 'webhook_endpoint.create' },
    });
    expect(audit).toMatchObject({
      tenantId: tenantA.id,
      entityType: 'WebhookEndpoint',
      after: { name: 'billing', url: 'http://127.0.0.1:9/hooks', leakRatePerSec: 0.5 },
    });
    expect(JSON.stringify(audit.after)).not.toContain(secret);
    expect(
      await app.prisma.outboxEvent.count({ where: { tenantId: tenantA.id, kind: 'tenant' } }),
    ).toBeGreaterThan(0);

    await publish(tenantA.id);
    const published = await readWebhookEndpoint(
      app.redis.redis,
      app.redis.prefix,
      tenantA.id,
      'billing',
    );
    expect(published).toMatchObject({ id: endpoint.id, leakRatePerSec: 0.5, maxAttempts: 4 });
    expect(JSON.stringify(published)).not.toContain(secret);
  });

  it('refuses destinations that resolve to private, link-local, metadata or unallowed loopback addresses', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.8/hooks',
      'http://192.168.1.20/hooks',
      'http://127.0.0.2:9/hooks',
      'http://[::1]:9/hooks',
      'http://[fd00:ec2::254]/',
    ]) {
      const error = errorOf(await create({ url }));
      expect(error.extensions, url).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.url' });
      expect(error.message, url).toMatch(/webhooks go to public addresses only/);
    }
    // localhost resolves to 127.0.0.1, which this deployment allows
    expect(
      dataOf(await create({ url: 'http://localhost:9/x' })).createWebhookEndpoint.endpoint.url,
    ).toBe('http://localhost:9/x');
    const { endpoint } = dataOf(await create()).createWebhookEndpoint;
    const refused = await app.graphql(
      UPDATE,
      { input: { id: endpoint.id, url: 'http://169.254.169.254/' } },
      as('adminA'),
    );
    expect(errorOf(refused.body).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.url',
    });
    expect(
      (await app.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).url,
    ).toBe(endpoint.url);
  });

  it('names every bad field, and refuses a name taken in the tenant', async () => {
    const error = errorOf(
      await create({
        name: 'Not A Name',
        url: 'ftp://x',
        leakRatePerSec: 0,
        queueCapacity: 0,
        maxAttempts: 99,
      }),
    );
    expect(error.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(
      (error.extensions?.['issues'] as { field: string }[]).map((issue) => issue.field),
    ).toEqual([
      'input.name',
      'input.url',
      'input.leakRatePerSec',
      'input.queueCapacity',
      'input.maxAttempts',
    ]);
    dataOf(await create({ name: 'taken' }));
    expect(errorOf(await create({ name: 'taken' })).extensions).toMatchObject({
      code: 'CONFLICT',
      field: 'input.name',
    });
    // the same name in another tenant is fine
    dataOf(await create({ name: 'taken', tenantId: tenantB.id }, 'adminB'));
  });

  it('lets a viewer read, but only admins of the tenant and operators change', async () => {
    const { endpoint } = dataOf(await create()).createWebhookEndpoint;
    const listed = dataOf(
      (
        await app.graphql<{ webhookEndpoints: Endpoint[] }>(
          LIST,
          { tenantId: tenantA.id },
          as('viewerA'),
        )
      ).body,
    ).webhookEndpoints;
    expect(listed.map((e) => e.id)).toContain(endpoint.id);

    const changes: [string, Record<string, unknown>][] = [
      [UPDATE, { input: { id: endpoint.id, enabled: false } }],
      [DELETE, { id: endpoint.id }],
      [ROTATE, { id: endpoint.id }],
      [REPLAY_ALL, { endpointId: endpoint.id }],
    ];
    for (const [mutation, variables] of changes) {
      const viewer = await app.graphql(mutation, variables, as('viewerA'));
      expect(errorOf(viewer.body).extensions?.['code']).toBe('FORBIDDEN');
      // another tenant's admin does not even see it
      const stranger = await app.graphql(mutation, variables, as('adminB'));
      expect(errorOf(stranger.body).extensions?.['code']).toBe('NOT_FOUND');
    }
    expect(errorOf(await create({}, 'viewerA')).extensions?.['code']).toBe('FORBIDDEN');
    expect(errorOf(await create({}, 'adminB')).extensions?.['code']).toBe('NOT_FOUND');
    expect(
      errorOf((await app.graphql(LIST, { tenantId: tenantA.id }, as('adminB'))).body).extensions?.[
        'code'
      ],
    ).toBe('NOT_FOUND');

    const updated = await app.graphql<{ updateWebhookEndpoint: Endpoint }>(
      UPDATE,
      { input: { id: endpoint.id, enabled: false, leakRatePerSec: 2 } },
      as('operator'),
    );
    expect(dataOf(updated.body).updateWebhookEndpoint).toMatchObject({
      enabled: false,
      leakRatePerSec: 2,
    });
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { entityId: endpoint.id, action: 'webhook_endpoint.update' },
      }),
    ).toMatchObject({
      before: { enabled: true, leakRatePerSec: 5 },
      after: { enabled: false, leakRatePerSec: 2 },
    });

    const deleted = await app.graphql<{ deleteWebhookEndpoint: string }>(
      DELETE,
      { id: endpoint.id },
      as('adminA'),
    );
    expect(dataOf(deleted.body).deleteWebhookEndpoint).toBe(endpoint.id);
    expect(await app.prisma.webhookEndpoint.count({ where: { id: endpoint.id } })).toBe(0);
    expect(
      await app.prisma.auditLog.count({
        where: { entityId: endpoint.id, action: 'webhook_endpoint.delete' },
      }),
    ).toBe(1);
  });

  it('rotates the secret, showing the new one once and keeping the previous one for the grace', async () => {
    const { secret: first, endpoint } = dataOf(await create()).createWebhookEndpoint;
    const before = Date.now();
    const rotated = await app.graphql<{
      rotateWebhookEndpointSecret: { secret: string; endpoint: Endpoint };
    }>(ROTATE, { id: endpoint.id, keep: 3600 }, as('adminA'));
    const { secret: second, endpoint: after } = dataOf(rotated.body).rotateWebhookEndpointSecret;

    expect(second).not.toBe(first);
    const expires = Date.parse(after.previousSecretExpiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000);
    const row = await app.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const owner = { tenantId: tenantA.id, endpointId: endpoint.id };
    expect(decryptSecret(SECRETS_KEY, row.secretCiphertext, owner)).toBe(second);
    expect(decryptSecret(SECRETS_KEY, row.previousSecretCiphertext!, owner)).toBe(first);
    const audit = await app.prisma.auditLog.findFirstOrThrow({
      where: { entityId: endpoint.id, action: 'webhook_endpoint.rotate_secret' },
    });
    const logged = JSON.stringify([audit.before, audit.after]);
    expect(logged).not.toContain(second);
    expect(logged).not.toContain(first);

    const leaked = await app.graphql<{
      rotateWebhookEndpointSecret: { endpoint: Endpoint };
    }>(ROTATE, { id: endpoint.id, keep: 0 }, as('adminA'));
    expect(
      dataOf(leaked.body).rotateWebhookEndpointSecret.endpoint.previousSecretExpiresAt,
    ).toBeNull();
    const bad = await app.graphql(ROTATE, { id: endpoint.id, keep: 10 ** 7 }, as('adminA'));
    expect(errorOf(bad.body).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'keepPreviousSeconds',
    });
  });

  it('shows the queue and replays dead letters, one, since a time or all, audited', async () => {
    const startedAt = new Date();
    const { endpoint } = dataOf(await create({ maxAttempts: 1 })).createWebhookEndpoint;
    await publish(tenantA.id);
    const published = (await readWebhookEndpoint(
      app.redis.redis,
      app.redis.prefix,
      tenantA.id,
      endpoint.id,
    ))!;
    const queue: Queue<DeliveryJob> = createWebhookQueue(
      app.redis.connect({ maxRetriesPerRequest: null }),
      app.redis.prefix,
    );
    const eventIds: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const admitted = await admitWebhookEvent(
        app.redis.redis,
        queue,
        app.redis.prefix,
        tenantA.id,
        published,
        {
          type: 'order.created',
          payload: { i },
        },
      );
      if (admitted.status === 'admitted') eventIds.push(admitted.eventId);
    }
    // what the worker does with an event whose last attempt failed
    const dead = eventIds.slice(0, 2);
    const worker = new Worker<DeliveryJob>(
      queue.name,
      async (job) => {
        if (!dead.includes(job.data.eventId)) return;
        await app.prisma.webhookDelivery.create({
          data: {
            id: newId('webhookDelivery'),
            endpointId: endpoint.id,
            eventId: job.data.eventId,
            eventType: job.data.eventType,
            attempt: 1,
            status: 'dead',
            responseCode: 500,
            error: 'HTTP 500 Internal Server Error',
          },
        });
        await recordOutcome(
          app.redis.redis,
          app.redis.prefix,
          tenantA.id,
          endpoint.id,
          'dead',
          job.data.eventId,
          {
            retryAfterMs: 0,
            failureThreshold: 100,
            failurePauseMs: 1000,
            maxPauseMs: 60_000,
            deadLetterRetentionMs: 86_400_000,
          },
        );
        throw new UnrecoverableError('dead');
      },
      {
        connection: app.redis.connect({ maxRetriesPerRequest: null }),
        prefix: `${app.redis.prefix}bull`,
      },
    );
    const keys = endpointKeys(app.redis.prefix, tenantA.id, endpoint.id);
    try {
      const deadline = Date.now() + 20_000;
      while ((await app.redis.redis.zcard(keys.dead)) < 2) {
        if (Date.now() > deadline) throw new Error('the two events never became dead letters');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await worker.close();
    }

    const view = dataOf(
      (
        await app.graphql<{ webhookEndpoint: { queue: Record<string, unknown> } }>(
          QUEUE,
          { id: endpoint.id },
          as('viewerA'),
        )
      ).body,
    ).webhookEndpoint.queue;
    expect(view).toMatchObject({
      depth: 1,
      leakRatePerSec: 5,
      inFlight: 0,
      delivered: 0,
      failed: 2,
      dead: 2,
    });
    expect(view['oldestWaitingMs']).toEqual(expect.any(Number));
    // one event waits, at 5 per second, and no pause (2 failures in a row, the threshold is 100)
    expect(view['timeToDrainMs']).toBe(200);
    expect(view['recentDeliveries']).toHaveLength(2);
    expect(view['deadLetters']).toEqual(
      expect.arrayContaining(
        dead.map((eventId) => ({
          eventId,
          eventType: 'order.created',
          lastError: 'HTTP 500 Internal Server Error',
        })),
      ),
    );

    const one = await app.graphql<{
      replayWebhookDeadLetter: { replayed: string[]; missing: string[] };
    }>(REPLAY_ONE, { endpointId: endpoint.id, eventId: dead[0] }, as('adminA'));
    expect(dataOf(one.body).replayWebhookDeadLetter).toEqual({
      replayed: [dead[0]],
      missing: [],
      remaining: 1,
    });
    expect(await (await queue.getJob(dead[0]!))!.getState()).toMatch(
      /^(waiting|delayed|prioritized)$/,
    );
    const replayAll = async (since?: Date) =>
      dataOf(
        (
          await app.graphql<{
            replayWebhookDeadLetters: { replayed: string[]; missing: string[] };
          }>(
            REPLAY_ALL,
            { endpointId: endpoint.id, since: since?.toISOString() ?? null },
            as('operator'),
          )
        ).body,
      ).replayWebhookDeadLetters;
    // none died after a time to come
    expect(await replayAll(new Date(Date.now() + 60_000))).toEqual({
      replayed: [],
      missing: [],
      remaining: 1,
    });
    expect(await replayAll(startedAt)).toEqual({ replayed: [dead[1]], missing: [], remaining: 0 });
    expect(await app.redis.redis.zcard(keys.dead)).toBe(0);
    expect(await replayAll()).toEqual({ replayed: [], missing: [], remaining: 0 });
    expect(
      await app.prisma.auditLog.count({
        where: { entityId: endpoint.id, action: 'webhook_endpoint.replay' },
      }),
    ).toBe(4);
    // an event of this endpoint that is not dead replays nothing
    const notDead = await app.graphql<{
      replayWebhookDeadLetter: { replayed: string[]; missing: string[] };
    }>(REPLAY_ONE, { endpointId: endpoint.id, eventId: eventIds[2] }, as('adminA'));
    expect(dataOf(notDead.body).replayWebhookDeadLetter).toEqual({
      replayed: [],
      missing: [eventIds[2]],
      remaining: 0,
    });
    await queue.close();
  });
});
