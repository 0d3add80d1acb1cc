import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedWindow, fixedWindowModel, ruleKey, type FixedWindowRule } from '../src/index';
import { timeArg, replyDecision, ruleParams } from '../src/script-args';
import { runScript } from '../src/scripts';

describe('calendar fixed windows on Redis', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());
  const keyFor = (id: string) =>
    ruleKey({ prefix: t.prefix, scope: 'quota', identifier: id, rule: 'monthly' });

  it('a monthly quota in New York resets at local midnight on the 1st', async () => {
    const rule = { limit: 3, calendar: { unit: 'month', timeZone: 'America/New_York' } } as const;
    const key = keyFor('plan');
    const lastMinute = Date.UTC(2024, 2, 1, 4, 59); // Feb 29, 23:59 in New York (leap year)
    for (let i = 0; i < 3; i++)
      expect((await fixedWindow(t.redis, key, rule, { now: lastMinute })).allowed).toBe(true);
    const denied = await fixedWindow(t.redis, key, rule, { now: lastMinute });
    expect(denied).toMatchObject({ allowed: false, remaining: 0, retryAfter: 60_000 });
    expect(new Date(denied.resetAt).toISOString()).toBe('2024-03-01T05:00:00.000Z');
    const march = await fixedWindow(t.redis, key, rule, { now: Date.UTC(2024, 2, 1, 5) });
    expect(march).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('the script picks the window of its own clock when the client clock is up to a window off', async () => {
    const rule: FixedWindowRule = {
      algorithm: 'fixed_window',
      limit: 5,
      calendar: { unit: 'day', timeZone: 'Asia/Kolkata' },
    };
    const serverNowMs = Date.UTC(2025, 5, 10, 18, 20); // 23:50 in Kolkata
    for (const skewMs of [-20 * 3_600_000, -60_000, 0, 60_000, 20 * 3_600_000]) {
      const key = keyFor(`skew${skewMs}`);
      const reply = await runScript(
        t.redis,
        'fixed_window',
        [key],
        [timeArg(serverNowMs * 1000), '2', ...ruleParams(rule, serverNowMs + skewMs)],
      );
      expect(replyDecision(reply, 0)).toEqual(
        fixedWindowModel(undefined, rule, serverNowMs * 1000, 2).decision,
      );
    }
  });

  it('a client clock off by more than a window is an error, not a wrong window', async () => {
    const rule: FixedWindowRule = {
      algorithm: 'fixed_window',
      limit: 5,
      calendar: { unit: 'day', timeZone: 'UTC' },
    };
    const serverNowMs = Date.UTC(2025, 5, 10, 12);
    const key = keyFor('far');
    await expect(
      runScript(
        t.redis,
        'fixed_window',
        [key],
        [timeArg(serverNowMs * 1000), '1', ...ruleParams(rule, serverNowMs + 3 * 86_400_000)],
      ),
    ).rejects.toThrow(/outside the calendar boundaries/);
    expect(await t.redis.exists(key)).toBe(0);
  });
});
