import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_READ_SECONDS,
  readDecisionLog,
  readKeyLastUsed,
  readSeconds,
  readTopDenied,
  UsageInputError,
} from '../src/index';
import { BASE_SECOND } from './support';

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
    ];
    for (const [read, message] of cases) {
      const error: unknown = await read.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageInputError);
      expect((error as Error).message).toMatch(message);
    }
  });
});
