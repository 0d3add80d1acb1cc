import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import { createPrismaClient, type PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
  testRedisUrl,
} from '@sluice/testing';
import { type DecisionEvent, UsageRecorder } from '@sluice/usage';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';
import { RollupMetrics } from '../src/rollup/rollup.metrics';
import { EXPIRY_MARGIN_SECONDS, RollupService } from '../src/rollup/rollup.service';

let t: TestRedis;
let database: TestDatabase;
let prisma: PrismaClient;
const cleanups: (() => Promise<unknown>)[] = [];

/** A complete minute three minutes ago: its seconds stay in Redis (15 min) for the whole test. */
const MINUTE = Math.floor(Date.now() / 60_000) - 3;
const MINUTE_MS = MINUTE * 60_000;
/** The first moment at which MINUTE + 1 is complete too (its end + the default 5 s of grace). */
const AFTER_NEXT_MS = (MINUTE + 2) * 60_000 + 5_000;

beforeEach(async () => {
  t = createTestRedis('worker-rollup');
  database = await createTestDatabase();
  prisma = createPrismaClient(database.url, { maxConnections: 4 });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await prisma.$disconnect();
  await database.drop();
  await t.cleanup();
});

function env(overrides: Record<string, string> = {}) {
  return parseEnv(envSchema, {
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    SLUICE_KEY_PREFIX: t.prefix,
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}

/** The service alone (no scheduler running beside the test), on real Redis and PostgreSQL. */
function rollupService(overrides: Record<string, string> = {}): RollupService {
  const redis = new RedisService({ url: testRedisUrl() });
  cleanups.push(() => redis.onApplicationShutdown());
  return new RollupService(env(overrides), redis, prisma, new RollupMetrics(new Registry()));
}

function recorder(): UsageRecorder {
  return new UsageRecorder({ redis: t.redis, prefix: t.prefix, allowSampleRate: 0 });
}

function event(overrides: Partial<DecisionEvent> = {}): DecisionEvent {
  return {
    tenantId: 'tnt_a',
    policy: 'api',
    keyId: 'key_1',
    at: MINUTE_MS,
    identifier: 'user-1',
    allowed: true,
    reason: 'allowed',
    cost: 1,
    shadowDenied: false,
    candidateDenied: false,
    ...overrides,
  };
}

/** A varied stream over every second of MINUTE: allows with costs, two reasons, shadow, candidate. */
function minuteOfTraffic(tenantId: string, count: number): DecisionEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const at = MINUTE_MS + (i % 60) * 1000 + (i % 7) * 10;
    const common = {
      tenantId,
      at,
      cost: i % 5,
      candidateDenied: i % 6 === 0,
      candidatesDeniedBy: i % 6 === 0 ? ['next'] : undefined,
    };
    if (i % 4 === 0) {
      const deniedBy = i % 8 === 0 ? 'burst' : 'in-flight';
      return event({ ...common, allowed: false, reason: 'rule', deniedBy });
    }
    if (i % 9 === 1) return event({ ...common, allowed: false, reason: 'suspended' });
    if (i % 5 === 2) {
      return event({ ...common, reason: 'shadow', shadowDenied: true, deniedBy: 'burst' });
    }
    if (i % 13 === 3) return event({ ...common, reason: 'fail-open' });
    return event(common);
  });
}

/** The row the roll-up must write for these events, as Prisma reads it back. */
function expectedRow(events: readonly DecisionEvent[]) {
  const denied = events.filter((e) => !e.allowed);
  const shadow = events.filter((e) => e.shadowDenied);
  const tally = (names: (string | undefined)[]) => {
    const counts: Record<string, number> = {};
    for (const name of names) if (name !== undefined) counts[name] = (counts[name] ?? 0) + 1;
    return counts;
  };
  return {
    allowed: BigInt(events.length - denied.length),
    denied: BigInt(denied.length),
    deniedByReason: tally(denied.map((e) => e.reason)),
    deniedByRule: tally(denied.map((e) => e.deniedBy)),
    shadowDenied: BigInt(shadow.length),
    shadowDeniedByRule: tally(shadow.map((e) => e.deniedBy)),
    candidateDenied: BigInt(events.filter((e) => e.candidateDenied).length),
    candidateDeniedByRule: tally(events.flatMap((e) => e.candidatesDeniedBy ?? [])),
    failOpen: BigInt(events.filter((e) => e.reason === 'fail-open').length),
    cost: BigInt(events.filter((e) => e.allowed).reduce((sum, e) => sum + e.cost, 0)),
  };
}

async function record(events: readonly DecisionEvent[]): Promise<void> {
  const usage = recorder();
  for (const e of events) usage.record(e);
  await usage.flush();
}

function rows() {
  return prisma.usageMinute.findMany({ orderBy: [{ tenantId: 'asc' }, { minute: 'asc' }] });
}

function row(tenantId: string, minute: number, policyName = 'api') {
  return prisma.usageMinute.findUnique({
    where: {
      tenantId_policyName_minute: { tenantId, policyName, minute: new Date(minute * 60_000) },
    },
  });
}

describe('usage roll-up', () => {
  it("writes each minute's totals as the sums of its seconds, tenants and policies apart", async () => {
    const a = minuteOfTraffic('tnt_a', 500);
    const b = minuteOfTraffic('tnt_b', 130);
    const login = [event({ policy: 'login' }), event({ policy: 'login', at: MINUTE_MS + 59_999 })];
    await record([...a, ...b, ...login]);

    const run = await rollupService().rollUp(AFTER_NEXT_MS);

    expect(run).toEqual({ minutes: 1, folded: 3, written: 3, expiring: 0 });
    expect(await row('tnt_a', MINUTE)).toMatchObject(expectedRow(a));
    expect(await row('tnt_b', MINUTE)).toMatchObject(expectedRow(b));
    expect(await row('tnt_a', MINUTE, 'login')).toMatchObject(expectedRow(login));
    expect(expectedRow(a).deniedByReason).toEqual({ rule: 125, suspended: 42 });
    expect(expectedRow(a).deniedByRule).toEqual({ burst: 63, 'in-flight': 62 });
    expect(expectedRow(a).failOpen).toBeGreaterThan(0n);
    expect(await rows()).toHaveLength(3);
  });

  it('counts nothing twice: run again, or by two workers at once', async () => {
    const events = minuteOfTraffic('tnt_a', 300);
    await record(events);
    const rollup = rollupService();

    await rollup.rollUp(AFTER_NEXT_MS);
    const first = await rows();
    const again = await rollup.rollUp(AFTER_NEXT_MS + 15_000);
    // recomputed, found equal, not rewritten
    expect(again).toMatchObject({ folded: 1, written: 0 });
    await Promise.all([rollup.rollUp(AFTER_NEXT_MS), rollupService().rollUp(AFTER_NEXT_MS)]);

    expect(await rows()).toEqual(first);
    expect(first).toEqual([expect.objectContaining(expectedRow(events))]);
  });

  it('folds a minute only once it is complete, plus the grace', async () => {
    const early = [event(), event({ at: MINUTE_MS + 30_000 })];
    const next = [event({ at: MINUTE_MS + 60_000 }), event({ at: MINUTE_MS + 119_999 })];
    await record([...early, ...next]);
    const rollup = rollupService();

    // MINUTE + 1 ended 4 s ago: within the grace
    await rollup.rollUp(AFTER_NEXT_MS - 1000);
    expect((await rows()).map((r) => r.minute.getTime())).toEqual([MINUTE_MS]);

    await rollup.rollUp(AFTER_NEXT_MS);
    expect((await rows()).map((r) => r.minute.getTime())).toEqual([MINUTE_MS, MINUTE_MS + 60_000]);
    expect(await row('tnt_a', MINUTE + 1)).toMatchObject(expectedRow(next));
  });

  it('corrects a minute on the next run when its traffic arrives late', async () => {
    const onTime = minuteOfTraffic('tnt_a', 120);
    await record(onTime);
    const rollup = rollupService();
    await rollup.rollUp(AFTER_NEXT_MS);
    expect(await row('tnt_a', MINUTE)).toMatchObject(expectedRow(onTime));

    // a data plane that could not reach Redis flushes its share of the minute later
    const late = minuteOfTraffic('tnt_a', 45);
    await record(late);
    const run = await rollup.rollUp(AFTER_NEXT_MS + 15_000);

    expect(run).toMatchObject({ folded: 1, written: 1 });
    expect(await row('tnt_a', MINUTE)).toMatchObject(expectedRow([...onTime, ...late]));
  });

  it('never overwrites a row once its seconds start leaving Redis, but fills a missing one', async () => {
    await record(minuteOfTraffic('tnt_a', 60));
    const rollup = rollupService();
    await rollup.rollUp(AFTER_NEXT_MS);
    const folded = await row('tnt_a', MINUTE);

    await record(minuteOfTraffic('tnt_a', 30));
    await record(minuteOfTraffic('tnt_b', 10));
    // the minute's first second expires at its start + 1 + 900 s (the data plane's retention)
    const expiring = (MINUTE * 60 + 901 - EXPIRY_MARGIN_SECONDS) * 1000;
    const run = await rollup.rollUp(expiring);

    expect(run).toEqual({ minutes: 1, folded: 2, written: 1, expiring: 2 });
    expect(await row('tnt_a', MINUTE)).toEqual(folded);
    expect(await row('tnt_b', MINUTE)).toMatchObject(expectedRow(minuteOfTraffic('tnt_b', 10)));
  });

  it('looks back no further than WORKER_USAGE_ROLLUP_LOOKBACK_SECONDS', async () => {
    await record([event(), event({ at: MINUTE_MS + 120_000 })]);

    // from 5 s after MINUTE + 3's end, a 120 s lookback reaches back to MINUTE + 2, not MINUTE
    await rollupService({ WORKER_USAGE_ROLLUP_LOOKBACK_SECONDS: '120' }).rollUp(
      (MINUTE + 4) * 60_000 + 5_000,
    );

    expect((await rows()).map((r) => r.minute.getTime())).toEqual([MINUTE_MS + 120_000]);
  });

  it('deletes only rows older than WORKER_USAGE_RETENTION_DAYS, in batches', async () => {
    const now = Date.UTC(2026, 11, 3, 12, 0, 0);
    const day = 86_400_000;
    const at = (ms: number) => ({ tenantId: 'tnt_a', policyName: 'api', minute: new Date(ms) });
    await prisma.usageMinute.createMany({
      data: [at(now - 31 * day), at(now - 30 * day), at(now - 29 * day), at(now - 60_000)],
    });
    // more than one DELETE batch (10,000 rows) of old rows
    await prisma.$executeRaw`
      INSERT INTO "UsageMinute" ("tenantId", "policyName", "minute")
      SELECT 'tnt_old', 'api', ${new Date(now - 31 * day).toISOString()}::timestamptz
        - make_interval(mins => i)
      FROM generate_series(1, 10050) AS i`;

    const deleted = await rollupService({ WORKER_USAGE_RETENTION_DAYS: '30' }).deleteExpired(now);

    expect(deleted).toBe(10_051);
    expect((await rows()).map((r) => r.minute.getTime())).toEqual([
      now - 30 * day,
      now - 29 * day,
      now - 60_000,
    ]);
  });
});

describe('the worker app', () => {
  let app: NestFastifyApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('rolls usage up on its own schedule and reports it on /metrics', async () => {
    const events = minuteOfTraffic('tnt_a', 90);
    await record(events);
    app = await createApp(env({ WORKER_USAGE_ROLLUP_INTERVAL_MS: '1000' }));
    await app.listen(0, '127.0.0.1');

    await vi.waitFor(
      async () => expect(await row('tnt_a', MINUTE)).toMatchObject(expectedRow(events)),
      { timeout: 30_000, interval: 200 },
    );
    const metrics = await (await fetch(`${await app.getUrl()}/metrics`)).text();
    expect(metrics).toMatch(/^sluice_usage_rollup_minutes_folded_total [1-9]/m);
    expect(metrics).toMatch(/^sluice_usage_rollup_last_success_seconds [1-9]/m);
  });
});
