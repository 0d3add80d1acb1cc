import { heartbeatIndexKey, redisTimeMs, writeHeartbeat } from '@sluice/nest-kit';
import { readTenantVersions } from '@sluice/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator, planWithApi, published, tenantOn } from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';
import { tokenFor } from './support/usage';

// The operators' platform view: traffic across tenants from the roll-ups, the outbox, and the
// data planes and workers by the heartbeats they write to Redis.

let app: TestApp;
let op: string;
let tenantA: string;
let tenantB: string;
/** The running epoch minute when the rows were written. */
let minute: number;

const TRAFFIC = /* GraphQL */ `
  query ($range: PlatformRange, $top: Int) {
    platform {
      traffic(range: $range, top: $top) {
        resolution
        from
        to
        rolledUpTo
        allowed
        denied
        activeTenants
        points {
          at
          allowed
          denied
        }
        topByChecks {
          tenantId
          name
          allowed
          denied
        }
        topByDenied {
          tenantId
          denied
        }
      }
    }
  }
`;

interface Traffic {
  resolution: string;
  from: string;
  to: string;
  rolledUpTo: string | null;
  allowed: number;
  denied: number;
  activeTenants: number;
  points: { at: string; allowed: number; denied: number }[];
  topByChecks: { tenantId: string; name: string | null; allowed: number; denied: number }[];
  topByDenied: { tenantId: string; denied: number }[];
}

const traffic = async (variables: Record<string, unknown>) =>
  (await gql<{ platform: { traffic: Traffic } }>(app, op, TRAFFIC, variables)).platform.traffic;

const at = (epochMinute: number) => new Date(epochMinute * 60_000);

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  const { planId } = await planWithApi(app, op, 5);
  tenantA = await tenantOn(app, op, planId);
  tenantB = await tenantOn(app, op, planId);
  await app.prisma.tenant.update({ where: { id: tenantA }, data: { name: 'Acme' } });
  await app.prisma.tenant.update({ where: { id: tenantB }, data: { name: 'Bolt' } });
  minute = Math.floor(Date.now() / 60_000);
  // what the worker's roll-up writes: A busy, B mostly denied, a deleted tenant, and an hour ago
  await app.prisma.usageMinute.createMany({
    data: [
      { tenantId: tenantA, policyName: 'api', minute: at(minute - 5), allowed: 100, denied: 2 },
      { tenantId: tenantA, policyName: 'chat', minute: at(minute - 5), allowed: 20 },
      { tenantId: tenantB, policyName: 'api', minute: at(minute - 3), allowed: 10, denied: 40 },
      { tenantId: 'tnt_gone', policyName: 'api', minute: at(minute - 2), allowed: 5 },
      { tenantId: tenantA, policyName: 'api', minute: at(minute - 90), allowed: 1000 },
    ],
  });
});
afterAll(async () => {
  await app.close();
});

describe('platform traffic', () => {
  it('sums the last hour across tenants by minute, with the top tenants by checks and by denials', async () => {
    const hour = await traffic({ range: 'HOUR' });

    expect(hour).toMatchObject({
      resolution: 'MINUTE',
      from: at(minute - 59).toISOString(),
      to: at(minute + 1).toISOString(),
      rolledUpTo: at(minute - 1).toISOString(),
      allowed: 135,
      denied: 42,
      activeTenants: 3,
    });
    expect(hour.points).toHaveLength(60);
    expect(hour.points.find((p) => p.at === at(minute - 5).toISOString())).toEqual({
      at: at(minute - 5).toISOString(),
      allowed: 120,
      denied: 2,
    });
    expect(hour.points.filter((p) => p.allowed + p.denied > 0)).toHaveLength(3);
    expect(hour.topByChecks).toEqual([
      { tenantId: tenantA, name: 'Acme', allowed: 120, denied: 2 },
      { tenantId: tenantB, name: 'Bolt', allowed: 10, denied: 40 },
      { tenantId: 'tnt_gone', name: null, allowed: 5, denied: 0 },
    ]);
    // a tenant without denials is not among the most denied
    expect(hour.topByDenied).toEqual([
      { tenantId: tenantB, denied: 40 },
      { tenantId: tenantA, denied: 2 },
    ]);
    expect((await traffic({ range: 'HOUR', top: 1 })).topByChecks.map((t) => t.tenantId)).toEqual([
      tenantA,
    ]);
  });

  it('sums a day by hour, the earlier hour included', async () => {
    const day = await traffic({ range: 'DAY' });

    expect(day.resolution).toBe('HOUR');
    expect(day.allowed).toBe(1135);
    expect(day.points.length).toBeGreaterThanOrEqual(24);
    expect(day.points.length).toBeLessThanOrEqual(25);
    expect(new Date(day.points[0]!.at).getUTCMinutes()).toBe(0);
    expect(day.points.reduce((sum, p) => sum + p.allowed, 0)).toBe(1135);
  });

  it('refuses a top list out of bounds with a field error', async () => {
    const error = await gqlError(app, op, TRAFFIC, { top: 51 });

    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'top' });
  });

  it('is for operators only', async () => {
    const admin = await tokenFor(app, 'tenant_admin', tenantA);

    expect((await gqlError(app, admin, TRAFFIC)).code).toBe('FORBIDDEN');
  });
});

describe('publication', () => {
  it('counts waiting outbox events, the retrying ones, the lag and the latest failure', async () => {
    await published(app, tenantA);
    await published(app, tenantB);
    while ((await app.prisma.outboxEvent.count({ where: { processedAt: null } })) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const createdAt = new Date(Date.now() - 30_000);
    // failed twice, its next attempt far away (the relay leaves it alone meanwhile)
    await app.prisma.outboxEvent.create({
      data: {
        tenantId: tenantB,
        kind: 'tenant',
        createdAt,
        attempts: 2,
        lastError: 'Redis is read-only',
        availableAt: new Date(Date.now() + 3_600_000),
      },
    });

    const { platform } = await gql<{
      platform: { publication: Record<string, unknown> };
    }>(
      app,
      op,
      `{ platform { publication { pending retrying oldestPendingAt lastPublishedAt lastError lastErrorTenantId } } }`,
    );

    expect(platform.publication).toMatchObject({
      pending: 1,
      retrying: 1,
      oldestPendingAt: createdAt.toISOString(),
      lastError: 'Redis is read-only',
      lastErrorTenantId: tenantB,
    });
    // the tenants' creations were published by the relay a moment ago
    const lastPublished = new Date(String(platform.publication['lastPublishedAt'])).getTime();
    expect(Date.now() - lastPublished).toBeLessThan(60_000);
  });
});

describe('data planes and workers', () => {
  const DATA_PLANES = /* GraphQL */ `
    {
      platform {
        dataPlanes {
          instance
          live
          lastSeenAt
          version
          host
          checksPerSecond
          deniedPerSecond
          checks
          pendingUsage
          redis {
            connections {
              role
              status
            }
            roundTripMs
            clockUncertaintyMs
            openCircuits
          }
          cache {
            tenants
            keys
            behind
            behindTenantIds
          }
        }
        workers {
          instance
          live
          queues {
            name
            running
            waiting
            active
            delayed
            failed
          }
        }
      }
    }
  `;
  const common = (instance: string, beatAt: number) => ({
    format: 1 as const,
    instance,
    version: '1.2.3',
    host: 'dp-host',
    pid: 42,
    startedAt: beatAt - 60_000,
    at: beatAt,
    intervalMs: 5000,
  });

  it('lists each by its latest beat: live or silent, and the cached tenants behind Redis', async () => {
    const { redis, prefix } = app.redis;
    await published(app, tenantA);
    await published(app, tenantB);
    const versions = await readTenantVersions(redis, prefix, [tenantA, tenantB]);
    const now = await redisTimeMs(redis);
    const details = {
      decisions: { allowed: 90, denied: 10 },
      perSecond: { checks: 12.5, denied: 1.5 },
      redis: {
        connections: { engine: 'ready', changes: 'ready', usage: 'reconnecting' },
        roundTripMs: 0.4,
        clockUncertaintyMs: 0.2,
        openCircuits: 1,
      },
      cache: {
        tenants: 2,
        keys: 3,
        versions: { [tenantA]: versions.get(tenantA)!, [tenantB]: versions.get(tenantB)! },
        versionsOmitted: 0,
      },
      usage: { pendingEntries: 7, flushFailures: 0 },
    };
    await writeHeartbeat(redis, prefix, 'data-plane', { ...common('dp-live', now), details });
    // a data plane that stopped beating a minute ago (more than 3 intervals)
    await writeHeartbeat(redis, prefix, 'data-plane', {
      ...common('dp-silent', now - 60_000),
      details,
    });
    // one whose beat expired: only its place in the index is left
    await redis.zadd(heartbeatIndexKey(prefix), now - 120_000, 'data-plane:dp-gone');
    await writeHeartbeat(redis, prefix, 'worker', {
      ...common('worker-1', now),
      details: {
        queues: [
          { name: 'sluice-webhooks', running: true, waiting: 4, active: 2, delayed: 1, failed: 0 },
        ],
      },
    });
    // a new version of A is published after the beat: the live data plane is one behind
    await gql(
      app,
      op,
      `mutation ($t: ID!, $i: PolicySettingsInput!) { createPolicy(tenantId: $t, input: $i) { policy { id } } }`,
      {
        t: tenantA,
        i: {
          name: 'search',
          rules: [{ name: 'r', algorithm: 'TOKEN_BUCKET', capacity: 5, refillPerSecond: 1 }],
        },
      },
    );
    await published(app, tenantA, versions.get(tenantA)! + 1);

    const { platform } = await gql<{
      platform: { dataPlanes: Record<string, unknown>[]; workers: Record<string, unknown>[] };
    }>(app, op, DATA_PLANES);

    expect(platform.dataPlanes.map((d) => [d['instance'], d['live']])).toEqual([
      ['dp-live', true],
      ['dp-silent', false],
      ['dp-gone', false],
    ]);
    expect(platform.dataPlanes[0]).toEqual({
      instance: 'dp-live',
      live: true,
      lastSeenAt: new Date(now).toISOString(),
      version: '1.2.3',
      host: 'dp-host',
      checksPerSecond: 12.5,
      deniedPerSecond: 1.5,
      checks: 100,
      pendingUsage: 7,
      redis: {
        connections: [
          { role: 'engine', status: 'ready' },
          { role: 'changes', status: 'ready' },
          { role: 'usage', status: 'reconnecting' },
        ],
        roundTripMs: 0.4,
        clockUncertaintyMs: 0.2,
        openCircuits: 1,
      },
      cache: { tenants: 2, keys: 3, behind: 1, behindTenantIds: [tenantA] },
    });
    expect(platform.dataPlanes[2]).toMatchObject({ version: null, redis: null, cache: null });
    expect(platform.workers).toEqual([
      {
        instance: 'worker-1',
        live: true,
        queues: [
          { name: 'sluice-webhooks', running: true, waiting: 4, active: 2, delayed: 1, failed: 0 },
        ],
      },
    ]);
  });
});
