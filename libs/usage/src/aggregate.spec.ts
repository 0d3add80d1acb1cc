import { describe, expect, it } from 'vitest';
import { logEntries, UsageAggregate, type AggregateLimits, type LogEntry } from './aggregate';

const entry = (at: number): LogEntry => ({
  at,
  identifier: `id-${at}`,
  outcome: 'denied',
  reason: 'rule',
  deniedBy: undefined,
  overrideId: undefined,
  cost: 1,
  shadowDenied: false,
  candidatesDeniedBy: undefined,
  rules: undefined,
  answer: undefined,
});

function aggregate(limits: Partial<AggregateLimits> = {}) {
  const drops = { overCap: 0, topDeniedOverflow: 0, topCostPruned: 0 };
  const usage = new UsageAggregate(
    { maxEntries: 1000, logLimit: 100, identifiersPerMinute: 100, ...limits },
    drops,
  );
  return { usage, drops };
}

describe('UsageAggregate', () => {
  it('holds at most maxEntries entries and counts what it refused', () => {
    const { usage, drops } = aggregate({ maxEntries: 10 });
    const policy = usage.policyOf('tnt_a', 'api')!;
    for (let second = 0; second < 20; second += 1) {
      const counters = usage.second(policy, second);
      if (counters) usage.add(counters, 'allowed', 1);
    }
    expect(usage.entries).toBe(10);
    // tenant + policy + 4 × (second + field) = 10; 16 seconds refused, with no field to add to
    expect(drops.overCap).toBe(16);
    // an existing field still counts once the cap is reached
    const counters = usage.second(policy, 0)!;
    usage.add(counters, 'allowed', 5);
    expect(counters.get('allowed')).toBe(6);
  });

  it('keeps the newest logLimit entries of a policy, oldest first', () => {
    const { usage, drops } = aggregate({ logLimit: 3 });
    const policy = usage.policyOf('tnt_a', 'api')!;
    for (let at = 1; at <= 7; at += 1) usage.addLog(policy, entry(at));
    expect(logEntries(policy).map((e) => e.at)).toEqual([5, 6, 7]);
    expect(drops.overCap).toBe(0);
  });

  it('bounds distinct denied identifiers per minute and keeps counting known ones', () => {
    const { usage, drops } = aggregate({ identifiersPerMinute: 2 });
    const identifiers = usage.minute(usage.policyOf('tnt_a', 'api')!, 0)!;
    for (const identifier of ['a', 'b', 'c', 'a', 'd', 'b', 'a']) {
      usage.addDenied(identifiers, identifier, 1);
    }
    expect(Object.fromEntries(identifiers)).toEqual({ a: 3, b: 2 });
    expect(drops.topDeniedOverflow).toBe(2);
  });

  it('keeps the latest last-used time whatever the order', () => {
    const { usage } = aggregate();
    const tenant = usage.tenant('tnt_a')!;
    for (const at of [5, 9, 3, 7]) usage.touchLastUsed(tenant, 'key_1', at);
    expect(tenant.lastUsed.get('key_1')).toBe(9);
  });
});
