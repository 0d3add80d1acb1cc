import { changesChannel, deleteTenant } from '@sluice/policy';
import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageLiveService } from '../src/usage/usage-live.service';
import { firstResult, socketClient } from './support/graphql-ws-client';
import { startTestApp, type TestApp } from './support/test-app';
import {
  createTenant,
  decision,
  denial,
  publishPolicies,
  recordUsage,
  tokenFor,
} from './support/usage';

const USAGE_UPDATED = /* GraphQL */ `
  subscription Usage($tenantId: ID!, $policy: String) {
    usageUpdated(tenantId: $tenantId, policy: $policy) {
      tenantId
      at
      policies {
        policy
        seconds {
          at
          allowed
          denied
        }
        lastMinute {
          allowed
          denied
          deniedByReason {
            reason
            count
          }
          cost
        }
      }
    }
  }
`;

const POLICY_CHANGED = /* GraphQL */ `
  subscription Changes($tenantId: ID!) {
    policyChanged(tenantId: $tenantId) {
      tenantId
      kind
      version
      receivedAt
    }
  }
`;

interface Snapshot {
  policy: string;
  seconds: { at: string; allowed: number; denied: number }[];
  lastMinute: {
    allowed: number;
    denied: number;
    deniedByReason: { reason: string; count: number }[];
    cost: number;
  };
}
interface UsageUpdate {
  tenantId: string;
  at: string;
  policies: Snapshot[];
}
interface PolicyChange {
  tenantId: string;
  kind: string;
  version: number | null;
  receivedAt: string;
}

/** Pushes come every second (dashboards expect one at least every 2 s): waits allow 10× that. */
const WAIT_MS = 20_000;

let app: TestApp;
let tenantA: string;
let tenantB: string;
let viewerA: string;
let viewerB: string;
const clients: Client[] = [];

function client(token?: string): Client {
  const created = socketClient(app.url, token ? { authorization: `Bearer ${token}` } : {});
  clients.push(created);
  return created;
}

/** Everything a subscription sends, as it arrives. */
function collect<T>(socket: Client, query: string, variables: Record<string, unknown>) {
  const values: T[] = [];
  const errors: unknown[] = [];
  socket.subscribe<Record<string, T>>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        for (const value of Object.values(result.data ?? {})) values.push(value);
      },
      error: (error) => errors.push(error),
      complete: () => undefined,
    },
  );
  return { values, errors };
}

/**
 * Publishes again until the subscriber has seen one of its versions (it may subscribe late), and
 * answers the version seen. Any of them counts, not only the latest: on a slow machine a message
 * may take longer than a round to arrive.
 */
async function publishUntilSeen(
  tenantId: string,
  seen: readonly PolicyChange[],
  names: string[] = ['api'],
): Promise<number> {
  const deadline = Date.now() + 30_000;
  const versions: number[] = [];
  const seenVersion = () =>
    seen.map((change) => change.version).find((version) => versions.includes(version ?? -1));
  for (;;) {
    versions.push(await publishPolicies(app, tenantId, names));
    try {
      await vi.waitFor(() => expect(seenVersion()).toBeDefined(), { timeout: 1000, interval: 20 });
      return seenVersion()!;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

beforeAll(async () => {
  app = await startTestApp();
  tenantA = await createTenant(app.prisma);
  tenantB = await createTenant(app.prisma);
  viewerA = await tokenFor(app, 'tenant_viewer', tenantA);
  viewerB = await tokenFor(app, 'tenant_viewer', tenantB);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await app.resetRedis();
});
afterAll(() => app?.close());

describe('usageUpdated', () => {
  it('pushes a snapshot at once, then the new counts once the data plane flushed them', async () => {
    await publishPolicies(app, tenantA, ['api', 'login']);
    const updates = collect<UsageUpdate>(client(viewerA), USAGE_UPDATED, {
      tenantId: tenantA,
      policy: 'api',
    });
    await vi.waitFor(() => expect(updates.values.length).toBeGreaterThan(0), { timeout: WAIT_MS });
    expect(updates.values[0]).toMatchObject({
      tenantId: tenantA,
      policies: [{ policy: 'api', lastMinute: { allowed: 0, denied: 0, cost: 0 } }],
    });
    expect(updates.values[0]!.policies[0]!.seconds).toHaveLength(10);

    const at = Date.now();
    await recordUsage(app, [
      ...Array.from({ length: 5 }, (_, i) => decision(tenantA, at, { cost: i })),
      denial(tenantA, at),
      denial(tenantA, at, { reason: 'suspended', deniedBy: undefined }),
      // another tenant's and another policy's usage: not in this feed
      decision(tenantB, at),
      decision(tenantA, at, { policy: 'login' }),
    ]);

    await vi.waitFor(
      () =>
        expect(updates.values.at(-1)?.policies[0]?.lastMinute).toEqual({
          allowed: 5,
          denied: 2,
          deniedByReason: [
            { reason: 'rule', count: 1 },
            { reason: 'suspended', count: 1 },
          ],
          cost: 10,
        }),
      { timeout: WAIT_MS, interval: 50 },
    );
    const update = updates.values.at(-1)!;
    const seconds = update.policies[0]!.seconds;
    // the last ten seconds up to the snapshot, the decisions' second among them while recent
    const snapshotSecond = Math.floor(Date.parse(update.at) / 1000);
    expect(seconds.map((s) => Date.parse(s.at) / 1000)).toEqual(
      Array.from({ length: 10 }, (_, i) => snapshotSecond - 9 + i),
    );
    const eventSecond = Math.floor(at / 1000);
    if (eventSecond > snapshotSecond - 10) {
      expect(seconds.find((s) => Date.parse(s.at) / 1000 === eventSecond)).toMatchObject({
        allowed: 5,
        denied: 2,
      });
    }
    expect(updates.errors).toEqual([]);
    // pushes keep coming while nothing changes
    const count = updates.values.length;
    await vi.waitFor(() => expect(updates.values.length).toBeGreaterThan(count + 1), {
      timeout: WAIT_MS,
    });
  });

  it("covers each of the tenant's published policies when none is named", async () => {
    await publishPolicies(app, tenantA, ['api', 'login']);
    const updates = collect<UsageUpdate>(client(viewerA), USAGE_UPDATED, { tenantId: tenantA });
    await recordUsage(app, [
      decision(tenantA, Date.now(), { policy: 'login', cost: 3 }),
      decision(tenantA, Date.now(), { policy: 'login', cost: 4 }),
    ]);

    await vi.waitFor(
      () =>
        expect(
          updates.values.at(-1)?.policies.map((p) => [p.policy, p.lastMinute.allowed]),
        ).toEqual([
          ['api', 0],
          ['login', 2],
        ]),
      { timeout: WAIT_MS, interval: 50 },
    );

    // a policy published later joins the feed
    await publishPolicies(app, tenantA, ['api', 'login', 'search']);
    await vi.waitFor(
      () =>
        expect(updates.values.at(-1)?.policies.map((p) => p.policy)).toEqual([
          'api',
          'login',
          'search',
        ]),
      { timeout: WAIT_MS, interval: 50 },
    );
  });

  it('is authorized when it starts: another tenant, a bad policy, no session', async () => {
    const refused = await firstResult(
      client(viewerB),
      `subscription { usageUpdated(tenantId: "${tenantA}", policy: "api") { tenantId } }`,
    );
    expect(refused).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'NOT_FOUND' } })],
    });
    const badPolicy = await firstResult(
      client(viewerA),
      `subscription { usageUpdated(tenantId: "${tenantA}", policy: "Bad Name") { tenantId } }`,
    );
    expect(badPolicy).toEqual({
      errors: [
        expect.objectContaining({
          extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'policy' }),
        }),
      ],
    });
    expect(
      await firstResult(client(), `subscription { usageUpdated(tenantId: "${tenantA}") { at } }`),
    ).toEqual({ closeCode: 4403 });
  });
});

describe('policyChanged', () => {
  it("sends the tenant's publications and removal, and no other tenant's", async () => {
    const changesA = collect<PolicyChange>(client(viewerA), POLICY_CHANGED, { tenantId: tenantA });
    const changesB = collect<PolicyChange>(client(viewerB), POLICY_CHANGED, { tenantId: tenantB });

    // B's changes first: were they sent to A's subscriber, they would arrive before A's own
    const versionB = await publishUntilSeen(tenantB, changesB.values);
    const versionA = await publishUntilSeen(tenantA, changesA.values);
    await deleteTenant(app.redis.redis, app.redis.prefix, tenantA);
    await vi.waitFor(
      () => expect(changesA.values.map((change) => change.kind)).toContain('DELETED'),
      { timeout: WAIT_MS },
    );

    expect(changesA.values.at(-1)).toEqual({
      tenantId: tenantA,
      kind: 'DELETED',
      version: null,
      receivedAt: expect.any(String),
    });
    expect(changesA.values).toContainEqual({
      tenantId: tenantA,
      kind: 'PUBLISHED',
      version: versionA,
      receivedAt: expect.any(String),
    });
    expect(changesB.values).toContainEqual(
      expect.objectContaining({ tenantId: tenantB, kind: 'PUBLISHED', version: versionB }),
    );
    expect(new Set(changesA.values.map((change) => change.tenantId))).toEqual(new Set([tenantA]));
    expect(new Set(changesB.values.map((change) => change.tenantId))).toEqual(new Set([tenantB]));
    expect([...changesA.errors, ...changesB.errors]).toEqual([]);
  });

  it("refuses another tenant's changes and a connection without a session", async () => {
    const query = `subscription { policyChanged(tenantId: "${tenantA}") { version } }`;
    expect(await firstResult(client(viewerB), query)).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'NOT_FOUND' } })],
    });
    expect(await firstResult(client(), query)).toEqual({ closeCode: 4403 });
  });
});

describe('subscription resources', () => {
  it('share one change subscription and one reader per tenant, released when clients go away', async () => {
    await publishPolicies(app, tenantA, ['api']);
    await publishPolicies(app, tenantB, ['api']);
    const live = app.app.get(UsageLiveService);
    // what earlier tests' clients held is released once their sockets closed
    await vi.waitFor(
      () => expect(live.stats()).toMatchObject({ usageTopics: 0, changeListeners: 0 }),
      {
        timeout: WAIT_MS,
      },
    );

    const feeds = [viewerA, viewerA, viewerB].map((token, i) =>
      collect<UsageUpdate>(client(token), USAGE_UPDATED, {
        tenantId: i < 2 ? tenantA : tenantB,
        policy: 'api',
      }),
    );
    const changes = [viewerA, viewerA, viewerB].map((token, i) =>
      collect<PolicyChange>(client(token), POLICY_CHANGED, { tenantId: i < 2 ? tenantA : tenantB }),
    );
    for (const feed of feeds) {
      await vi.waitFor(() => expect(feed.values.length).toBeGreaterThan(0), { timeout: WAIT_MS });
    }
    await vi.waitFor(
      () => expect(live.stats()).toMatchObject({ usageTopics: 2, changeListeners: 3 }),
      {
        timeout: WAIT_MS,
      },
    );
    // one subscriber connection on the change channel for the whole process
    const [, subscribers] = (await app.redis.redis.pubsub(
      'NUMSUB',
      changesChannel(app.redis.prefix),
    )) as [string, number];
    expect(subscribers).toBe(1);
    expect(changes.flatMap((c) => c.errors)).toEqual([]);

    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await vi.waitFor(
      () => expect(live.stats()).toMatchObject({ usageTopics: 0, changeListeners: 0 }),
      {
        timeout: WAIT_MS,
      },
    );
  });
});
