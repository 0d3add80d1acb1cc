import type { DecisionEvent } from '@sluice/usage';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlResponse, startTestApp, type TestApp } from './support/test-app';
import {
  createTenant,
  decision,
  denial,
  errorOf,
  publishPolicies,
  recordUsage,
  tokenFor,
} from './support/usage';

const SERIES = /* GraphQL */ `
  query Series($input: UsageSeriesInput!) {
    usageSeries(input: $input) {
      resolution
      from
      to
      points {
        at
        allowed
        denied
        deniedByReason {
          reason
          count
        }
        deniedByRule {
          rule
          count
        }
        shadowDenied
        shadowDeniedByRule {
          rule
          count
        }
        candidateDenied
        candidateDeniedByRule {
          rule
          count
        }
        failOpen
        cost
      }
    }
  }
`;

const TOTALS = /* GraphQL */ `
  query Totals($tenantId: ID!, $from: DateTime!, $to: DateTime!) {
    usageTotals(tenantId: $tenantId, from: $from, to: $to) {
      policy
      allowed
      denied
      deniedByReason {
        reason
        count
      }
      deniedByRule {
        rule
        count
      }
      shadowDenied
      shadowDeniedByRule {
        rule
        count
      }
      candidateDenied
      candidateDeniedByRule {
        rule
        count
      }
      failOpen
      cost
    }
  }
`;

const TOP_DENIED = /* GraphQL */ `
  query Top($tenantId: ID!, $policy: String!, $from: DateTime!, $to: DateTime!, $limit: Int) {
    topDeniedIdentifiers(
      tenantId: $tenantId
      policy: $policy
      from: $from
      to: $to
      limit: $limit
    ) {
      identifier
      denied
    }
  }
`;

const LOG = /* GraphQL */ `
  query Log(
    $tenantId: ID!
    $policy: String!
    $outcome: DecisionOutcome
    $first: Int
    $after: String
  ) {
    decisionLog(
      tenantId: $tenantId
      policy: $policy
      outcome: $outcome
      first: $first
      after: $after
    ) {
      entries {
        id
        at
        identifier
        outcome
        reason
        deniedBy
        overrideId
        cost
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

type RuleCounts = { rule: string; count: number }[];
interface Counts {
  allowed: number;
  denied: number;
  deniedByReason: { reason: string; count: number }[];
  deniedByRule: RuleCounts;
  shadowDenied: number;
  shadowDeniedByRule: RuleCounts;
  candidateDenied: number;
  candidateDeniedByRule: RuleCounts;
  failOpen: number;
  cost: number;
}
interface Point extends Counts {
  at: string;
}
interface Series {
  usageSeries: { resolution: string; from: string; to: string; points: Point[] };
}
interface LogPage {
  decisionLog: {
    entries: { id: string; at: string; identifier: string; outcome: string; cost: number }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

const ZERO: Counts = {
  allowed: 0,
  denied: 0,
  deniedByReason: [],
  deniedByRule: [],
  shadowDenied: 0,
  shadowDeniedByRule: [],
  candidateDenied: 0,
  candidateDeniedByRule: [],
  failOpen: 0,
  cost: 0,
};

/** Counts by name, sorted by name as the API sorts them. */
function tally(names: readonly (string | undefined)[]): RuleCounts {
  const counts = new Map<string, number>();
  for (const name of names) if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rule, count]) => ({ rule, count }));
}

/** What the API must answer for these decisions. */
function countsOf(events: readonly DecisionEvent[]): Counts {
  const denied = events.filter((e) => !e.allowed);
  const reasons = new Map<string, number>();
  for (const e of denied) reasons.set(e.reason, (reasons.get(e.reason) ?? 0) + 1);
  const shadow = events.filter((e) => e.shadowDenied);
  return {
    allowed: events.length - denied.length,
    denied: denied.length,
    deniedByReason: [...reasons]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([reason, count]) => ({ reason, count })),
    deniedByRule: tally(denied.map((e) => e.deniedBy)),
    shadowDenied: shadow.length,
    shadowDeniedByRule: tally(shadow.map((e) => e.deniedBy)),
    candidateDenied: events.filter((e) => e.candidateDenied).length,
    candidateDeniedByRule: tally(events.flatMap((e) => e.candidatesDeniedBy ?? [])),
    failOpen: events.filter((e) => e.reason === 'fail-open').length,
    cost: events.filter((e) => e.allowed).reduce((sum, e) => sum + e.cost, 0),
  };
}

/** Some of everything within one second (or minute) starting at `at`. */
function mixed(tenantId: string, at: number, scale = 1): DecisionEvent[] {
  const events: DecisionEvent[] = [];
  for (let i = 0; i < 3 * scale; i += 1) events.push(decision(tenantId, at + i, { cost: 2 + i }));
  for (let i = 0; i < 2 * scale; i += 1) events.push(denial(tenantId, at + i));
  events.push(denial(tenantId, at + 1, { reason: 'suspended', deniedBy: undefined }));
  events.push(denial(tenantId, at + 1, { deniedBy: 'in-flight' }));
  events.push(
    decision(tenantId, at + 2, {
      reason: 'shadow',
      shadowDenied: true,
      deniedBy: 'burst',
      cost: 0,
    }),
  );
  events.push(decision(tenantId, at + 3, { candidateDenied: true, candidatesDeniedBy: ['next'] }));
  events.push(decision(tenantId, at + 3, { reason: 'fail-open' }));
  return events;
}

const iso = (ms: number) => new Date(ms).toISOString();

let app: TestApp;
let tenantA: string;
let tenantB: string;
let operator: string;
let viewerA: string;
let adminA: string;
let viewerB: string;

beforeAll(async () => {
  // the reconciler would publish these directly created tenants' (empty) policies over ours
  app = await startTestApp();
  tenantA = await createTenant(app.prisma);
  tenantB = await createTenant(app.prisma);
  operator = await tokenFor(app, 'operator');
  viewerA = await tokenFor(app, 'tenant_viewer', tenantA);
  adminA = await tokenFor(app, 'tenant_admin', tenantA);
  viewerB = await tokenFor(app, 'tenant_viewer', tenantB);
});
afterEach(async () => {
  await app.resetRedis();
  await app.prisma.usageMinute.deleteMany();
});
afterAll(() => app?.close());

describe('usageSeries', () => {
  it('answers seconds from the Redis counters, one point per second, zeros between', async () => {
    const nowSecond = Math.floor(Date.now() / 1000);
    const busy = mixed(tenantA, (nowSecond - 20) * 1000);
    const quiet = [decision(tenantA, (nowSecond - 15) * 1000 + 999, { candidateDenied: true })];
    // another policy and another tenant: in neither answer
    const elsewhere = [
      decision(tenantA, (nowSecond - 20) * 1000, { policy: 'login' }),
      ...mixed(tenantB, (nowSecond - 20) * 1000),
    ];
    await recordUsage(app, [...busy, ...quiet, ...elsewhere]);

    const input = {
      tenantId: tenantA,
      policy: 'api',
      from: iso((nowSecond - 30) * 1000 + 400),
      to: iso((nowSecond - 10) * 1000),
    };
    const response = await app.graphql<Series>(SERIES, { input }, { bearer: viewerA });

    const series = response.body.data!.usageSeries;
    expect(series).toMatchObject({
      resolution: 'SECOND',
      from: iso((nowSecond - 30) * 1000),
      to: iso((nowSecond - 10) * 1000),
    });
    expect(series.points.map((p) => p.at)).toEqual(
      Array.from({ length: 20 }, (_, i) => iso((nowSecond - 30 + i) * 1000)),
    );
    const byAt = new Map(series.points.map(({ at, ...counts }) => [at, counts]));
    expect(byAt.get(iso((nowSecond - 20) * 1000))).toEqual(countsOf(busy));
    expect(byAt.get(iso((nowSecond - 15) * 1000))).toEqual(countsOf(quiet));
    expect(countsOf(busy).deniedByReason).toHaveLength(2);
    for (const [at, counts] of byAt) {
      if (at !== iso((nowSecond - 20) * 1000) && at !== iso((nowSecond - 15) * 1000)) {
        expect(counts).toEqual(ZERO);
      }
    }

    // asked for explicitly, the same; tenant B sees only its own
    const explicit = await app.graphql<Series>(
      SERIES,
      { input: { ...input, resolution: 'SECOND' } },
      { bearer: adminA },
    );
    expect(explicit.body.data!.usageSeries).toEqual(series);
    const other = await app.graphql<Series>(
      SERIES,
      { input: { ...input, tenantId: tenantB } },
      { bearer: viewerB },
    );
    expect(
      other.body.data!.usageSeries.points.find((p) => p.at === iso((nowSecond - 20) * 1000)),
    ).toMatchObject(countsOf(mixed(tenantB, 0)));
  });

  it('answers minutes from UsageMinute rows, and from the seconds for minutes not rolled up yet', async () => {
    const nowMinute = Math.floor(Date.now() / 60_000);
    const at = (minute: number) => minute * 60_000;
    // long past the 15 minutes of seconds: in PostgreSQL only
    const old = nowMinute - 30;
    await app.prisma.usageMinute.create({
      data: {
        tenantId: tenantA,
        policyName: 'api',
        minute: new Date(at(old)),
        allowed: 1000n,
        denied: 7n,
        deniedByReason: { rule: 5, suspended: 2 },
        deniedByRule: { burst: 5 },
        shadowDenied: 3n,
        shadowDeniedByRule: { burst: 3 },
        candidateDenied: 1n,
        candidateDeniedByRule: { next: 1 },
        failOpen: 6n,
        cost: 12_345n,
      },
    });
    // rolled up already: the worker's row is the answer
    const rolled = nowMinute - 4;
    await recordUsage(app, mixed(tenantA, at(rolled) + 10_000));
    await app.prisma.usageMinute.create({
      data: {
        tenantId: tenantA,
        policyName: 'api',
        minute: new Date(at(rolled)),
        allowed: 40n,
        denied: 4n,
        deniedByReason: { rule: 4 },
        cost: 80n,
      },
    });
    // not rolled up yet: summed from its seconds, spread over the minute
    const recent = nowMinute - 2;
    const recentEvents = [
      ...mixed(tenantA, at(recent)),
      ...mixed(tenantA, at(recent) + 31_000, 2),
      ...mixed(tenantA, at(recent) + 59_000),
    ];
    await recordUsage(app, recentEvents);
    // another tenant's row of the same minute and policy
    await app.prisma.usageMinute.create({
      data: { tenantId: tenantB, policyName: 'api', minute: new Date(at(old)), allowed: 99n },
    });

    const response = await app.graphql<Series>(
      SERIES,
      {
        input: {
          tenantId: tenantA,
          policy: 'api',
          from: iso(at(nowMinute - 31) + 20_000),
          to: iso(Date.now() + 3_600_000),
        },
      },
      { bearer: viewerA },
    );

    const series = response.body.data!.usageSeries;
    expect(series.resolution).toBe('MINUTE');
    expect(series.from).toBe(iso(at(nowMinute - 31)));
    // one point per minute up to the current one, none in the future
    const lastMinute = Math.floor(Date.parse(series.points.at(-1)!.at) / 60_000);
    expect(lastMinute).toBeGreaterThanOrEqual(nowMinute);
    expect(lastMinute).toBeLessThanOrEqual(Math.floor(Date.now() / 60_000));
    expect(series.points.map((p) => p.at)).toEqual(
      Array.from({ length: lastMinute - nowMinute + 32 }, (_, i) => iso(at(nowMinute - 31 + i))),
    );
    const byAt = new Map(series.points.map(({ at: when, ...counts }) => [when, counts]));
    expect(byAt.get(iso(at(old)))).toEqual({
      allowed: 1000,
      denied: 7,
      deniedByReason: [
        { reason: 'rule', count: 5 },
        { reason: 'suspended', count: 2 },
      ],
      deniedByRule: [{ rule: 'burst', count: 5 }],
      shadowDenied: 3,
      shadowDeniedByRule: [{ rule: 'burst', count: 3 }],
      candidateDenied: 1,
      candidateDeniedByRule: [{ rule: 'next', count: 1 }],
      failOpen: 6,
      cost: 12_345,
    });
    expect(byAt.get(iso(at(rolled)))).toEqual({
      ...ZERO,
      allowed: 40,
      denied: 4,
      deniedByReason: [{ reason: 'rule', count: 4 }],
      cost: 80,
    });
    expect(byAt.get(iso(at(recent)))).toEqual(countsOf(recentEvents));
    for (const minute of [old - 1, old + 1, rolled - 1, rolled + 1, recent - 1, recent + 1]) {
      expect(byAt.get(iso(at(minute)))).toEqual(ZERO);
    }
  });

  it('sums the roll-ups per hour and per day (UTC) for long ranges, recent minutes included', async () => {
    const now = Date.now();
    const nowMinute = Math.floor(now / 60_000);
    const today = Math.floor(nowMinute / 1440) * 1440;
    const thisHour = Math.floor(nowMinute / 60) * 60;
    const row = (minute: number, allowed: bigint, deniedBy: Record<string, number> = {}) => ({
      tenantId: tenantA,
      policyName: 'api',
      minute: new Date(minute * 60_000),
      allowed,
      denied: BigInt(Object.values(deniedBy).reduce((sum, n) => sum + n, 0)),
      deniedByReason: Object.keys(deniedBy).length ? { rule: 3 } : {},
      deniedByRule: deniedBy,
      cost: allowed,
    });
    await app.prisma.usageMinute.createMany({
      data: [
        // two minutes of one day 5 days ago, one of the day before
        row(today - 5 * 1440 + 10, 100n, { burst: 2, 'per-day': 1 }),
        row(today - 5 * 1440 + 900, 50n),
        row(today - 6 * 1440 + 1439, 7n),
        // two minutes of one hour three hours ago
        row(thisHour - 180 + 1, 4n),
        row(thisHour - 180 + 59, 6n),
        // another policy, another tenant: not in the series
        { ...row(today - 5 * 1440 + 10, 1000n), policyName: 'login' },
        { ...row(today - 5 * 1440 + 10, 1000n), tenantId: tenantB },
      ],
    });
    // not rolled up yet: from the seconds
    const recent = mixed(tenantA, (nowMinute - 2) * 60_000);
    await recordUsage(app, recent);

    const days = await app.graphql<Series>(
      SERIES,
      {
        input: {
          tenantId: tenantA,
          policy: 'api',
          from: iso((today - 89 * 1440) * 60_000),
          to: iso(now),
        },
      },
      { bearer: viewerA },
    );
    const daySeries = days.body.data!.usageSeries;
    expect(daySeries.resolution).toBe('DAY');
    expect(daySeries.points).toHaveLength(90);
    const byDay = new Map(daySeries.points.map(({ at, ...counts }) => [at, counts]));
    expect(byDay.get(iso((today - 5 * 1440) * 60_000))).toEqual({
      ...ZERO,
      allowed: 150,
      denied: 3,
      deniedByReason: [{ reason: 'rule', count: 3 }],
      deniedByRule: [
        { rule: 'burst', count: 2 },
        { rule: 'per-day', count: 1 },
      ],
      cost: 150,
    });
    expect(byDay.get(iso((today - 6 * 1440) * 60_000))).toMatchObject({ allowed: 7 });
    const recentCounts = countsOf(recent);
    // the recent minute's day: yesterday in the first two minutes of a UTC day
    const recentDay = Math.floor((nowMinute - 2) / 1440) * 1440;
    const recentDayPoint = byDay.get(iso(recentDay * 60_000))!;
    const hoursThatDay = thisHour - 180 >= recentDay && thisHour - 180 < recentDay + 1440 ? 10 : 0;
    expect(recentDayPoint.allowed).toBe(recentCounts.allowed + hoursThatDay);
    expect(recentDayPoint.deniedByRule).toEqual(recentCounts.deniedByRule);

    const hours = await app.graphql<Series>(
      SERIES,
      {
        input: {
          tenantId: tenantA,
          policy: 'api',
          from: iso((thisHour - 6 * 60) * 60_000),
          to: iso(now),
          resolution: 'HOUR',
        },
      },
      { bearer: viewerA },
    );
    const hourSeries = hours.body.data!.usageSeries;
    expect(hourSeries.points.map((p) => p.at)).toEqual(
      Array.from({ length: 7 }, (_, i) => iso((thisHour - 360 + i * 60) * 60_000)),
    );
    expect(hourSeries.points.find((p) => p.at === iso((thisHour - 180) * 60_000))).toMatchObject({
      allowed: 10,
      cost: 10,
    });

    // a week defaults to hours; too many points are refused on `input.to`
    const week = await app.graphql<Series>(
      SERIES,
      {
        input: { tenantId: tenantA, policy: 'api', from: iso(now - 7 * 86_400_000), to: iso(now) },
      },
      { bearer: viewerA },
    );
    expect(week.body.data!.usageSeries.resolution).toBe('HOUR');
    const tooMany = await app.graphql(
      SERIES,
      {
        input: {
          tenantId: tenantA,
          policy: 'api',
          from: iso(now - 40 * 86_400_000),
          to: iso(now),
          resolution: 'HOUR',
        },
      },
      { bearer: viewerA },
    );
    expect(errorOf(tooMany.body)).toEqual({ code: 'BAD_USER_INPUT', field: 'input.to' });
  });

  it('refuses ranges it cannot answer, naming the field', async () => {
    const now = Date.now();
    const base = { tenantId: tenantA, policy: 'api', from: iso(now - 60_000), to: iso(now) };
    const cases: [Record<string, unknown>, string][] = [
      [{ from: iso(now), to: iso(now - 1000) }, 'input.to'],
      [{ from: iso(now), to: iso(now) }, 'input.to'],
      [{ policy: 'Not A Policy' }, 'input.policy'],
      // seconds are kept 15 minutes
      [
        { from: iso(now - 20 * 60_000), to: iso(now - 19 * 60_000), resolution: 'SECOND' },
        'input.from',
      ],
      [
        { from: iso(now - 10 * 60_000), to: iso(now + 10 * 60_000), resolution: 'SECOND' },
        'input.to',
      ],
      [{ from: iso(now - 25 * 3_600_000), to: iso(now), resolution: 'MINUTE' }, 'input.to'],
      // DAY has at most 92 points, whatever picked it
      [{ from: iso(now - 93 * 86_400_000), to: iso(now) }, 'input.to'],
      [{ from: iso(now - 100 * 86_400_000), to: iso(now), resolution: 'DAY' }, 'input.to'],
    ];
    for (const [change, field] of cases) {
      const response = await app.graphql(
        SERIES,
        { input: { ...base, ...change } },
        { bearer: viewerA },
      );
      expect(errorOf(response.body), JSON.stringify(change)).toEqual({
        code: 'BAD_USER_INPUT',
        field,
      });
      expect(response.body.data ?? null).toBeNull();
    }
    // a malformed date never reaches the resolver
    const malformed = await app.graphql(
      SERIES,
      { input: { ...base, from: 'yesterday' } },
      { bearer: viewerA },
    );
    expect(errorOf(malformed.body).code).toBe('BAD_USER_INPUT');
  });
});

describe('usageTotals', () => {
  it('sums each policy over the range: rolled-up minutes and recent seconds, published policies with zeros', async () => {
    const nowMinute = Math.floor(Date.now() / 60_000);
    await publishPolicies(app, tenantA, ['api', 'login', 'quiet']);
    await app.prisma.usageMinute.createMany({
      data: [
        {
          tenantId: tenantA,
          policyName: 'api',
          minute: new Date((nowMinute - 40) * 60_000),
          allowed: 100n,
          denied: 10n,
          deniedByReason: { rule: 6, suspended: 4 },
          deniedByRule: { burst: 5, 'in-flight': 1 },
          shadowDeniedByRule: { burst: 2 },
          candidateDeniedByRule: { next: 3, other: 1 },
          shadowDenied: 2n,
          candidateDenied: 3n,
          failOpen: 4n,
          cost: 500n,
        },
        {
          tenantId: tenantA,
          policyName: 'api',
          minute: new Date((nowMinute - 3) * 60_000),
          allowed: 1n,
          cost: 1n,
        },
        // a policy removed since: still in the totals of the range
        {
          tenantId: tenantA,
          policyName: 'retired',
          minute: new Date((nowMinute - 50) * 60_000),
          allowed: 5n,
        },
        // outside the range
        {
          tenantId: tenantA,
          policyName: 'api',
          minute: new Date((nowMinute - 70) * 60_000),
          allowed: 1_000_000n,
        },
        // another tenant
        {
          tenantId: tenantB,
          policyName: 'api',
          minute: new Date((nowMinute - 40) * 60_000),
          allowed: 7n,
        },
      ],
    });
    // recent, not rolled up: from the seconds; the rolled-up minute's seconds are not added again
    const recent = mixed(tenantA, (nowMinute - 2) * 60_000);
    const login = [decision(tenantA, (nowMinute - 1) * 60_000, { policy: 'login', cost: 9 })];
    await recordUsage(app, [
      ...recent,
      ...login,
      ...mixed(tenantA, (nowMinute - 3) * 60_000 + 5000),
      ...mixed(tenantB, (nowMinute - 2) * 60_000),
    ]);

    const response = await app.graphql<{ usageTotals: (Counts & { policy: string })[] }>(
      TOTALS,
      { tenantId: tenantA, from: iso((nowMinute - 60) * 60_000), to: iso(Date.now()) },
      { bearer: viewerA },
    );

    const recentCounts = countsOf(recent);
    expect(response.body.data?.usageTotals).toEqual([
      {
        policy: 'api',
        allowed: 101 + recentCounts.allowed,
        denied: 10 + recentCounts.denied,
        deniedByReason: [
          { reason: 'rule', count: 6 + 3 },
          { reason: 'suspended', count: 4 + 1 },
        ],
        deniedByRule: [
          { rule: 'burst', count: 5 + 2 },
          { rule: 'in-flight', count: 1 + 1 },
        ],
        shadowDenied: 2 + recentCounts.shadowDenied,
        shadowDeniedByRule: [{ rule: 'burst', count: 2 + 1 }],
        candidateDenied: 3 + recentCounts.candidateDenied,
        candidateDeniedByRule: [
          { rule: 'next', count: 3 + 1 },
          { rule: 'other', count: 1 },
        ],
        failOpen: 4 + recentCounts.failOpen,
        cost: 501 + recentCounts.cost,
      },
      { policy: 'login', ...countsOf(login) },
      { policy: 'quiet', ...ZERO },
      { policy: 'retired', ...ZERO, allowed: 5 },
    ]);
  });

  it('refuses a range over 92 days or backwards, naming the argument', async () => {
    const now = Date.now();
    for (const [from, to] of [
      [now - 93 * 86_400_000, now],
      [now, now - 1],
    ] as const) {
      const response = await app.graphql(
        TOTALS,
        { tenantId: tenantA, from: iso(from), to: iso(to) },
        { bearer: operator },
      );
      expect(errorOf(response.body)).toEqual({ code: 'BAD_USER_INPUT', field: 'to' });
    }
  });
});

describe('topDeniedIdentifiers', () => {
  it('ranks the identifiers denied in the range, most denied first, up to limit', async () => {
    const now = Date.now();
    const events: DecisionEvent[] = [];
    for (const [identifier, times] of [
      ['abuser', 7],
      ['noisy', 4],
      ['once', 1],
    ] as const) {
      for (let i = 0; i < times; i += 1)
        events.push(denial(tenantA, now - 90_000 + i, { identifier }));
    }
    events.push(decision(tenantA, now - 90_000, { identifier: 'polite' }));
    events.push(denial(tenantB, now - 90_000, { identifier: 'b-only' }));
    await recordUsage(app, events);

    const range = { tenantId: tenantA, policy: 'api', from: iso(now - 5 * 60_000), to: iso(now) };
    const top = await app.graphql(TOP_DENIED, { ...range, limit: 2 }, { bearer: viewerA });
    expect(top.body.data).toEqual({
      topDeniedIdentifiers: [
        { identifier: 'abuser', denied: 7 },
        { identifier: 'noisy', denied: 4 },
      ],
    });
    const all = await app.graphql(TOP_DENIED, range, { bearer: operator });
    expect(all.body.data).toEqual({
      topDeniedIdentifiers: [
        { identifier: 'abuser', denied: 7 },
        { identifier: 'noisy', denied: 4 },
        { identifier: 'once', denied: 1 },
      ],
    });
    // a range before the denials has none
    const before = await app.graphql(
      TOP_DENIED,
      { ...range, from: iso(now - 10 * 60_000), to: iso(now - 5 * 60_000) },
      { bearer: viewerA },
    );
    expect(before.body.data).toEqual({ topDeniedIdentifiers: [] });

    for (const [change, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ policy: 'a:b' }, 'policy'],
      [{ from: iso(now), to: iso(now - 60_000) }, 'to'],
      [{ from: iso(now - 25 * 3_600_000) }, 'to'],
    ] as const) {
      const response = await app.graphql(TOP_DENIED, { ...range, ...change }, { bearer: viewerA });
      expect(errorOf(response.body)).toEqual({ code: 'BAD_USER_INPUT', field });
    }
  });
});

describe('decisionLog', () => {
  it('pages through the log newest first, with or without an outcome filter', async () => {
    const now = Date.now();
    const events: DecisionEvent[] = [];
    for (let i = 0; i < 11; i += 1) {
      const at = now - 60_000 + i * 100;
      events.push(
        i % 3 === 0
          ? denial(tenantA, at, { identifier: `id-${i}` })
          : decision(tenantA, at, { identifier: `id-${i}`, cost: i }),
      );
    }
    await recordUsage(app, [...events, denial(tenantB, now - 60_000, { identifier: 'b' })]);

    async function pages(outcome: string | null, first: number) {
      const seen: string[][] = [];
      let after: string | null = null;
      for (;;) {
        const response: GraphqlResponse<LogPage> = await app.graphql<LogPage>(
          LOG,
          { tenantId: tenantA, policy: 'api', outcome, first, after },
          { bearer: viewerA },
        );
        const page: LogPage['decisionLog'] = response.body.data!.decisionLog;
        seen.push(page.entries.map((entry) => entry.identifier));
        if (!page.pageInfo.hasNextPage) return seen;
        after = page.pageInfo.endCursor;
        expect(after).not.toBeNull();
      }
    }

    const newestFirst = [...events].reverse();
    expect(await pages(null, 4)).toEqual([
      ['id-10', 'id-9', 'id-8', 'id-7'],
      ['id-6', 'id-5', 'id-4', 'id-3'],
      ['id-2', 'id-1', 'id-0'],
    ]);
    expect((await pages('DENIED', 2)).flat()).toEqual(
      newestFirst.filter((e) => !e.allowed).map((e) => e.identifier),
    );
    expect((await pages('ALLOWED', 3)).flat()).toEqual(
      newestFirst.filter((e) => e.allowed).map((e) => e.identifier),
    );

    const first = await app.graphql<LogPage>(
      LOG,
      { tenantId: tenantA, policy: 'api', first: 1 },
      { bearer: operator },
    );
    expect(first.body.data!.decisionLog.entries).toEqual([
      {
        id: expect.stringMatching(/^\d+-\d+$/),
        at: iso(events[10]!.at),
        identifier: 'id-10',
        outcome: 'ALLOWED',
        reason: 'allowed',
        deniedBy: null,
        overrideId: null,
        cost: 10,
      },
    ]);

    for (const [change, field] of [
      [{ first: 0 }, 'first'],
      [{ first: 101 }, 'first'],
      [{ after: 'not-a-cursor' }, 'after'],
      [{ after: Buffer.from('c1:not-an-id').toString('base64url') }, 'after'],
      [{ policy: '' }, 'policy'],
    ] as const) {
      const response = await app.graphql(
        LOG,
        { tenantId: tenantA, policy: 'api', ...change },
        { bearer: viewerA },
      );
      expect(errorOf(response.body)).toEqual({ code: 'BAD_USER_INPUT', field });
    }
  });
});

describe('access', () => {
  it('answers NOT_FOUND to a member of another tenant and to an unknown tenant, as for the tenant itself', async () => {
    const now = Date.now();
    await recordUsage(app, mixed(tenantA, now - 30_000));
    const range = { from: iso(now - 60_000), to: iso(now) };
    const queries: [string, Record<string, unknown>][] = [
      [SERIES, { input: { tenantId: tenantA, policy: 'api', ...range } }],
      [TOTALS, { tenantId: tenantA, ...range }],
      [TOP_DENIED, { tenantId: tenantA, policy: 'api', ...range }],
      [LOG, { tenantId: tenantA, policy: 'api' }],
    ];
    for (const [query, variables] of queries) {
      for (const bearer of [viewerA, adminA, operator]) {
        const allowed = await app.graphql(query, variables, { bearer });
        expect(allowed.body.errors).toBeUndefined();
      }
      const refused = await app.graphql(query, variables, { bearer: viewerB });
      expect(errorOf(refused.body)).toEqual({ code: 'NOT_FOUND', field: undefined });
      expect(refused.body.data ?? null).toBeNull();
      expect(JSON.stringify(refused.body)).not.toContain('user-1');

      const unknownTenant = JSON.parse(JSON.stringify(variables).replaceAll(tenantA, 'tnt_nope'));
      const missing = await app.graphql(query, unknownTenant, { bearer: operator });
      expect(errorOf(missing.body).code).toBe('NOT_FOUND');

      const anonymous = await app.graphql(query, variables);
      expect(errorOf(anonymous.body).code).toBe('UNAUTHENTICATED');
    }
  });
});
