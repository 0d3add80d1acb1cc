import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataPlane,
  gql,
  gqlError,
  operator,
  planWithApi,
  serviceKey,
  tenantOn,
} from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';
import { decision, denial, recordUsage, tokenFor } from './support/usage';

// A policy's top identifiers: the heavy hitters by cost (what the data planes keep per minute)
// and the most denied, each with its quota in every live rule now (a peek through the engine)
// and, for quotas of an hour or more, when it runs out at its rate.

const TOP = /* GraphQL */ `
  query ($t: ID!, $from: DateTime!, $to: DateTime!, $by: TopIdentifiersBy, $limit: Int) {
    topIdentifiers(tenantId: $t, policy: "api", from: $from, to: $to, by: $by, limit: $limit) {
      identifier
      cost
      denied
      quota {
        rule
        limit
        remaining
        used
        resetAt
        windowMs
        runsOutAt
      }
    }
  }
`;

interface Top {
  identifier: string;
  cost: number;
  denied: number;
  quota: {
    rule: string;
    limit: number;
    remaining: number;
    used: number;
    resetAt: string;
    windowMs: number;
    runsOutAt: string | null;
  }[];
}

let app: TestApp;
let op: string;
let viewer: string;
let outsider: string;
let tenantId: string;
let engine: Awaited<ReturnType<typeof dataPlane>>;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  // the plan's api: burst (5, refilled at 0.001/s: a 5,000 s quota) and daily (1,000 a day)
  const { planId } = await planWithApi(app, op, 5);
  tenantId = await tenantOn(app, op, planId);
  viewer = await tokenFor(app, 'tenant_viewer', tenantId);
  outsider = await tokenFor(app, 'tenant_admin', await tenantOn(app, op, planId));
  const secret = await serviceKey(app, tenantId);
  engine = await dataPlane(app);
  // the counters the quota is peeked from
  for (let i = 0; i < 3; i += 1) await engine.check(secret, 'api', 'heavy');
  for (let i = 0; i < 6; i += 1) await engine.check(secret, 'api', 'abuser');
  // and what the data planes' usage recorder kept of them (a cost of 300 spent by heavy)
  const at = Date.now() - 30_000;
  await recordUsage(app, [
    decision(tenantId, at, { identifier: 'heavy', cost: 300 }),
    decision(tenantId, at, { identifier: 'light', cost: 10 }),
    decision(tenantId, at, { identifier: 'abuser', cost: 5 }),
    ...Array.from({ length: 4 }, () => denial(tenantId, at, { identifier: 'abuser' })),
  ]);
});
afterAll(async () => {
  await engine?.stop();
  await app?.close();
});

describe('topIdentifiers', () => {
  it('ranks the heavy hitters by cost, each with its quota now and its burn-down', async () => {
    const now = Date.now();
    const { topIdentifiers } = await gql<{ topIdentifiers: Top[] }>(app, viewer, TOP, {
      t: tenantId,
      from: iso(now - 5 * 60_000),
      to: iso(now + 60_000),
      limit: 2,
    });
    expect(topIdentifiers.map((t) => [t.identifier, t.cost, t.denied])).toEqual([
      ['heavy', 300, 0],
      ['light', 10, 0],
    ]);
    const [heavy, light] = topIdentifiers;
    const burst = heavy?.quota.find((q) => q.rule === 'burst');
    expect(burst).toMatchObject({ limit: 5, remaining: 2, used: 0.6, windowMs: 5_000_000 });
    // 300 over the five minutes read: 1 a second, against a refill of 0.001: the 2 left last
    // about 2 seconds
    const runsOut = Date.parse(burst?.runsOutAt ?? '');
    expect(runsOut).toBeGreaterThanOrEqual(now);
    expect(runsOut).toBeLessThan(now + 10_000);
    const daily = heavy?.quota.find((q) => q.rule === 'daily');
    expect(daily).toMatchObject({ limit: 1000, remaining: 997 });
    // about 1,000 seconds at that rate, unless the day ends first
    if (daily?.runsOutAt) {
      expect(Date.parse(daily.runsOutAt)).toBeLessThanOrEqual(Date.parse(daily.resetAt));
    }
    // light spent nothing the engine saw: its quota is full; at 10 in the 5 to 6 minutes read
    // (against a refill of 0.001 a second) its 5 last 155 to 187 seconds
    const lightBurst = light?.quota.find((q) => q.rule === 'burst');
    expect(lightBurst).toMatchObject({ remaining: 5, used: 0 });
    const lightOut = Date.parse(lightBurst?.runsOutAt ?? '');
    expect(lightOut).toBeGreaterThan(now + 120_000);
    expect(lightOut).toBeLessThan(now + 240_000);
  });

  it('ranks the most denied by DENIED, with their cost beside', async () => {
    const now = Date.now();
    const { topIdentifiers } = await gql<{ topIdentifiers: Top[] }>(app, op, TOP, {
      t: tenantId,
      from: iso(now - 5 * 60_000),
      to: iso(now + 60_000),
      by: 'DENIED',
    });
    expect(topIdentifiers.map((t) => [t.identifier, t.cost, t.denied])).toEqual([['abuser', 5, 4]]);
    // the engine's state: the sixth check was denied, nothing remains, out now
    const burst = topIdentifiers[0]?.quota.find((q) => q.rule === 'burst');
    expect(burst).toMatchObject({ remaining: 0, used: 1 });
    expect(Date.parse(burst?.runsOutAt ?? '')).toBeLessThanOrEqual(Date.now());
  });

  it('answers nothing before the range has usage, and refuses other tenants and big limits', async () => {
    const now = Date.now();
    const before = { t: tenantId, from: iso(now - 20 * 60_000), to: iso(now - 10 * 60_000) };
    expect((await gql<{ topIdentifiers: Top[] }>(app, viewer, TOP, before)).topIdentifiers).toEqual(
      [],
    );
    const range = { t: tenantId, from: iso(now - 60_000), to: iso(now) };
    expect((await gqlError(app, outsider, TOP, range)).code).toBe('NOT_FOUND');
    expect(await gqlError(app, viewer, TOP, { ...range, limit: 26 })).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'limit',
    });
  });
});
