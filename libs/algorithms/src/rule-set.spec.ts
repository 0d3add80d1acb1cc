import { describe, expect, it } from 'vitest';
import { LocalLimiter } from './local-limiter';
import { ruleKey } from './rule-key';
import type { AnyRuleSpec, RuleSpec } from './rule-spec';
import { prepareRuleSet, ruleSetChecks, ruleSetKeys } from './rule-set';

const bucket: RuleSpec = { algorithm: 'token_bucket', capacity: 3, refillPerSecond: 1 };
const log: RuleSpec = { algorithm: 'sliding_window_log', limit: 2, windowMs: 60_000 };
const next = { algorithm: 'gcra', limit: 5, periodMs: 1000 } as RuleSpec;
const spec = {
  prefix: 'sluice:rl:',
  scope: 'tnt_a.pol_1',
  rules: [
    { name: 'burst', rule: bucket },
    { name: 'minute', rule: log },
    {
      name: 'c-next',
      rule: next,
      candidate: true,
    },
  ],
};

describe('prepareRuleSet', () => {
  it('keys each rule as ruleKey does, validated rules with their defaults, one cost or one per rule', () => {
    const set = prepareRuleSet(spec);
    const key = (rule: string, state: AnyRuleSpec) =>
      ruleKey({ prefix: spec.prefix, scope: spec.scope, identifier: 'é', rule, state });
    expect(ruleSetChecks(set, 'é', 2)).toEqual([
      { key: key('burst', bucket), rule: bucket, cost: 2, candidate: false, name: 'burst' },
      { key: key('minute', log), rule: log, cost: 2, candidate: false, name: 'minute' },
      {
        key: key('c-next', next),
        rule: { algorithm: 'gcra', limit: 5, periodMs: 1000, burst: 5 },
        cost: 2,
        candidate: true,
        name: 'c-next',
      },
    ]);
    expect(ruleSetChecks(set, 'é', [0, 1, 2]).map((check) => check.cost)).toEqual([0, 1, 2]);
    expect(ruleSetKeys(set, 'é')).toEqual([
      key('burst', bucket),
      key('minute', log),
      `${key('minute', log)}:sum`,
      key('c-next', next),
    ]);
  });

  it('is frozen, so what was validated stays valid', () => {
    const set = prepareRuleSet(spec);
    const rule = set.rules[0]!.rule as { capacity: number };
    expect(() => {
      rule.capacity = 1e12;
    }).toThrow(TypeError);
    expect(() =>
      (set.rules as unknown[]).push({ name: 'x', rule: bucket, candidate: false }),
    ).toThrow(TypeError);
    const calendar = prepareRuleSet({
      ...spec,
      rules: [
        {
          name: 'm',
          rule: {
            algorithm: 'fixed_window',
            limit: 1,
            calendar: { unit: 'month', timeZone: 'UTC' },
          },
        },
      ],
    }).rules[0]!.rule as { calendar: { timeZone: string } };
    expect(() => {
      calendar.calendar.timeZone = 'Nowhere/At_All';
    }).toThrow(TypeError);
    // and the caller's spec is not the set's: changing it later changes nothing
    const input = { ...spec, rules: [{ name: 'r', rule: { ...bucket } }] };
    const copy = prepareRuleSet(input);
    input.rules[0]!.rule.capacity = 0;
    expect(copy.rules[0]!.rule).toEqual(bucket);
  });

  it('decides locally like the unprepared checks', () => {
    const set = prepareRuleSet(spec);
    const prepared = new LocalLimiter({ clock: () => 1_800_000_000_000 });
    const plain = new LocalLimiter({ clock: () => 1_800_000_000_000 });
    for (const cost of [1, 2, 1, 0, 3]) {
      const checks = ruleSetChecks(set, 'u', cost);
      expect(prepared.checkPrepared(set, 'u', cost)).toEqual(plain.checkRules(checks));
    }
  });
});
