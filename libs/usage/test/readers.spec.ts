import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addUsage,
  emptyUsage,
  MAX_READ_SECONDS,
  readActiveMinutes,
  readActivePolicies,
  readDecisionLog,
  readKeyLastUsed,
  readMinutes,
  readSeconds,
  readTopDenied,
  UsageInputError,
  UsageRecorder,
} from '../src/index';
import { BASE_MS, BASE_SECOND, decision, denial } from './support';

let t: TestRedis;

beforeEach(() => {
  t = createTestRedis('usage');
});

afterEach(async () => {
  await t.cleanup();
});

describe('readers', () => {
  it('answer empty data with zero rows, no identifiers, an empty log', async () => {
    const rows = await readSeconds(t.redis, t.prefix, 'tnt_a', 'api', BASE_SECOND, BASE_SECOND + 2);
    expect(rows.map((row) => row.second)).toEqual([BASE_SECOND, BASE_SECOND + 1, BASE_SECOND + 2]);
    for (const row of rows) {
      expect(row).toMatchObject({ allowed: 0, denied: 0, deniedByReason: {}, cost: 0 });
    }
    const minute = Math.floor(BASE_SECOND / 60);
    expect(await readTopDenied(t.redis, t.prefix, 'tnt_a', 'api', minute, minute, 10)).toEqual([]);
    expect(await readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', { count: 10 })).toEqual({
      entries: [],
    });
    expect(await readKeyLastUsed(t.redis, t.prefix, 'tnt_a')).toEqual([]);
  });

  it('reject bad arguments with UsageInputError naming the argument', async () => {
    const cases: [Promise<unknown>, RegExp][] = [
      [readSeconds(t.redis, t.prefix, 'tnt a', 'api', 1, 2), /tenantId/],
      [readSeconds(t.redis, t.prefix, 'tnt_a', 'Api', 1, 2), /policy/],
      [readSeconds(t.redis, '{x}:', 'tnt_a', 'api', 1, 2), /prefix/],
      [readSeconds(t.redis, t.prefix, 'tnt_a', 'api', 5, 4), /from\/to second/],
      [readSeconds(t.redis, t.prefix, 'tnt_a', 'api', 0.5, 4), /from\/to second/],
      [readSeconds(t.redis, t.prefix, 'tnt_a', 'api', 1, MAX_READ_SECONDS + 1), /at most 3600/],
      [readTopDenied(t.redis, t.prefix, 'tnt_a', 'api', 1, 2, 0), /limit/],
      [readTopDenied(t.redis, t.prefix, 'tnt_a', 'api', 1, 2000, 5), /at most 1440/],
      [readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', { count: 1001 }), /count/],
      [readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', { count: 5, before: '+' }), /before/],
      [readKeyLastUsed(t.redis, t.prefix, ''), /tenantId/],
      [readMinutes(t.redis, t.prefix, 'tnt_a', 'api', 1, 61), /at most 60 minutes/],
      [readActivePolicies(t.redis, t.prefix, -1), /from\/to minute/],
      [readActiveMinutes(t.redis, t.prefix, 'tnt_a', ['API'], 1, 2), /policy/],
      [readActiveMinutes(t.redis, t.prefix, 'tnt_a', ['api'], 1, 1441), /at most 1440/],
    ];
    for (const [read, message] of cases) {
      const error: unknown = await read.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageInputError);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('readMinutes', () => {
  it('sums each minute of seconds, zeros where nothing was recorded', async () => {
    const usage = new UsageRecorder({ redis: t.redis, prefix: t.prefix, allowSampleRate: 0 });
    const minute = BASE_MS / 60_000;
    usage.record(decision({ at: BASE_MS, cost: 3 }));
    usage.record(decision({ at: BASE_MS + 59_999, cost: 4, candidateDenied: true }));
    usage.record(denial({ at: BASE_MS + 30_000 }));
    usage.record(denial({ at: BASE_MS + 31_000, reason: 'suspended', deniedBy: undefined }));
    usage.record(
      decision({
        at: BASE_MS + 120_000,
        reason: 'shadow',
        shadowDenied: true,
        deniedBy: 'per-day',
      }),
    );
    await usage.flush();

    expect(await readMinutes(t.redis, t.prefix, 'tnt_a', 'api', minute, minute + 2)).toEqual([
      {
        ...emptyUsage(),
        minute,
        allowed: 2,
        denied: 2,
        deniedByReason: { rule: 1, suspended: 1 },
        deniedByRule: { 'per-second': 1 },
        candidateDenied: 1,
        cost: 7,
      },
      { minute: minute + 1, ...emptyUsage() },
      {
        ...emptyUsage(),
        minute: minute + 2,
        allowed: 1,
        shadowDenied: 1,
        shadowDeniedByRule: { 'per-day': 1 },
        cost: 1,
      },
    ]);
  });
});

describe('addUsage', () => {
  it('merges reasons as own properties, whatever their name', () => {
    const total = emptyUsage();
    addUsage(total, { ...emptyUsage(), denied: 2, deniedByReason: { constructor: 2 } });
    addUsage(total, { ...emptyUsage(), denied: 1, deniedByReason: { constructor: 1, rule: 0 } });
    expect(total.deniedByReason).toEqual({ constructor: 3, rule: 0 });
    expect(total.denied).toBe(3);
  });
});
