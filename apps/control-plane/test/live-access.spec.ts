import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LiveAccessService } from '../src/live/live-access.service';
import { UsageLiveService } from '../src/usage/usage-live.service';
import { firstResult, socketClient } from './support/graphql-ws-client';
import { createUser, loginWithBearer, startTestApp, type TestApp } from './support/test-app';
import { createTenant, decision, publishPolicies, recordUsage, tokenFor } from './support/usage';

/** The recheck runs every 2 s (the default); the promise is 5 s, and tests wait 5× that. */
const REVOKED_WITHIN_MS = 5000;
const WAIT = { timeout: 5 * REVOKED_WITHIN_MS, interval: 50 };

let app: TestApp;
let tenantId: string;
let operator: string;
const clients: Client[] = [];

function client(token: string): Client {
  const created = socketClient(app.url, { authorization: `Bearer ${token}` });
  clients.push(created);
  return created;
}

const usageQuery = (policy?: string) =>
  `subscription { usageUpdated(tenantId: "${tenantId}"${
    policy ? `, policy: "${policy}"` : ''
  }) { at policies { policy lastMinute { allowed } } } }`;

interface Feed {
  values: unknown[];
  errors: { message: string; extensions?: { code?: string } }[];
  completedAt: number | undefined;
}

/** Subscribes and records what comes, and when the server completed the operation. */
function watch(socket: Client, query: string): Feed {
  const feed: Feed = { values: [], errors: [], completedAt: undefined };
  socket.subscribe(
    { query },
    {
      next: (result) => {
        if (result.errors) feed.errors.push(...(result.errors as Feed['errors']));
        if (result.data) feed.values.push(result.data);
      },
      error: (error) => feed.errors.push({ message: String(error) }),
      complete: () => (feed.completedAt = Date.now()),
    },
  );
  return feed;
}

async function graphqlAs(token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await app.graphql(query, variables, { bearer: token });
  expect(response.body.errors).toBeUndefined();
  return response.body.data;
}

/** A tenant viewer with an open live view, then `revoke`: the view ends with FORBIDDEN. */
async function expectEndedBy(
  revoke: (viewer: { id: string; token: string }) => Promise<void>,
): Promise<void> {
  await publishPolicies(app, tenantId, ['api']);
  const user = await createUser(app.prisma, {
    memberships: [{ role: 'tenant_viewer', tenantId }],
  });
  const token = await loginWithBearer(app, user);
  const feed = watch(client(token), usageQuery());
  await vi.waitFor(() => expect(feed.values.length).toBeGreaterThan(0), WAIT);

  await revoke({ id: user.id, token });
  const revokedAt = Date.now();
  await vi.waitFor(() => expect(feed.completedAt).toBeDefined(), WAIT);
  expect(feed.errors).toEqual([
    expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
  ]);
  // measured, not asserted (the goal is 5 s; the wait above allows 25)
  console.info(`live view ended ${feed.completedAt! - revokedAt} ms after the change`);
  const values = feed.values.length;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(feed.values.length).toBe(values);
}

beforeAll(async () => {
  app = await startTestApp();
  tenantId = await createTenant(app.prisma);
  operator = await tokenFor(app, 'operator');
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await app.resetRedis();
});
afterAll(() => app?.close());

describe('usageUpdated resources', () => {
  it('refuses a policy the tenant has not published', async () => {
    await publishPolicies(app, tenantId, ['api']);
    expect(await firstResult(client(operator), usageQuery('nope'))).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'NOT_FOUND' } })],
    });
    expect(app.app.get(UsageLiveService).stats().usageTopics).toBe(0);
  });

  it('reads one tenant once per tick for all its viewers, and its idle policies not at all', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    await publishPolicies(app, tenantId, names);
    const live = app.app.get(UsageLiveService);
    const socket = client(operator);
    const feeds = [
      ...names.map((name) => watch(socket, usageQuery(name))),
      watch(socket, usageQuery()),
    ];
    for (const feed of feeds) {
      await vi.waitFor(() => expect(feed.values.length).toBeGreaterThan(0), WAIT);
    }
    expect(live.stats().usageTopics).toBe(1);

    // 20 idle policies: three ticks read no seconds
    const idleFrom = live.stats().policyReads;
    const pushes = feeds[0]!.values.length;
    await vi.waitFor(() => expect(feeds[0]!.values.length).toBeGreaterThan(pushes + 2), WAIT);
    expect(live.stats().policyReads).toBe(idleFrom);

    // one busy policy: one read per tick, whoever watches it, and every feed gets its figure
    await recordUsage(app, [decision(tenantId, Date.now(), { policy: 'p07' })]);
    const all = feeds.at(-1)!;
    await vi.waitFor(() => {
      const last = all.values.at(-1) as {
        usageUpdated: { policies: { policy: string; lastMinute: { allowed: number } }[] };
      };
      expect(last.usageUpdated.policies.find((p) => p.policy === 'p07')?.lastMinute.allowed).toBe(
        1,
      );
    }, WAIT);
    const busyFrom = live.stats().policyReads;
    const ticks = all.values.length;
    await vi.waitFor(() => expect(all.values.length).toBeGreaterThan(ticks + 2), WAIT);
    const reads = live.stats().policyReads - busyFrom;
    const elapsedTicks = all.values.length - ticks;
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(elapsedTicks + 1);
    expect(feeds.flatMap((feed) => feed.errors)).toEqual([]);
  });
});

describe('subscription caps', () => {
  it('runs 40 per connection and 100 per user, refusing the next with a coded error', async () => {
    await publishPolicies(app, tenantId, ['api']);
    const access = app.app.get(LiveAccessService);
    const sockets = [client(operator), client(operator), client(operator)];
    const open = (socket: Client, count: number) =>
      Array.from({ length: count }, () => watch(socket, usageQuery()));
    const first = open(sockets[0]!, 40);
    await vi.waitFor(() => expect(first.every((feed) => feed.values.length > 0)).toBe(true), WAIT);

    const overConnection = await firstResult(sockets[0]!, usageQuery());
    expect(overConnection).toEqual({
      errors: [
        expect.objectContaining({
          extensions: { code: 'TOO_MANY_REQUESTS', limit: 40, scope: 'connection' },
        }),
      ],
    });
    // the same user's other connections: up to 100 in all
    const more = [...open(sockets[1]!, 40), ...open(sockets[2]!, 20)];
    await vi.waitFor(() => expect(more.every((feed) => feed.values.length > 0)).toBe(true), WAIT);
    expect(access.stats().running).toBe(100);
    expect(await firstResult(sockets[2]!, usageQuery())).toEqual({
      errors: [
        expect.objectContaining({
          extensions: { code: 'TOO_MANY_REQUESTS', limit: 100, scope: 'user' },
        }),
      ],
    });
    // another user is not held back by this one
    const other = await tokenFor(app, 'tenant_viewer', tenantId);
    expect(await firstResult(client(other), usageQuery())).toMatchObject({ next: {} });

    // closing the connections gives the room back
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await vi.waitFor(() => expect(access.stats()).toEqual({ running: 0, users: 0 }), WAIT);
    expect(await firstResult(client(operator), usageQuery())).toMatchObject({ next: {} });
  });
});

describe('a running subscription loses its access', () => {
  it('ends for a member removed from the tenant', async () => {
    await expectEndedBy(async (viewer) => {
      await graphqlAs(
        operator,
        `mutation($t: ID, $u: ID!) { removeMember(tenantId: $t, userId: $u) }`,
        {
          t: tenantId,
          u: viewer.id,
        },
      );
    });
  });

  it('ends when its session is revoked (logout)', async () => {
    await expectEndedBy(async (viewer) => {
      await graphqlAs(viewer.token, `mutation { logout }`);
    });
  });

  it('ends for a disabled user', async () => {
    await expectEndedBy(async (viewer) => {
      await graphqlAs(
        operator,
        `mutation($u: ID!) { setUserDisabled(id: $u, disabled: true) { id } }`,
        {
          u: viewer.id,
        },
      );
    });
  });

  it('ends the session-only feeds too (serverTime)', async () => {
    const user = await createUser(app.prisma, {
      memberships: [{ role: 'tenant_viewer', tenantId }],
    });
    const token = await loginWithBearer(app, user);
    const feed = watch(client(token), 'subscription { serverTime }');
    await vi.waitFor(() => expect(feed.values.length).toBeGreaterThan(0), WAIT);
    await graphqlAs(token, `mutation { logout }`);
    await vi.waitFor(() => expect(feed.completedAt).toBeDefined(), WAIT);
    expect(feed.errors).toEqual([
      expect.objectContaining({ message: 'Your session has ended: sign in again.' }),
    ]);
  });
});
