import { describe, expect, it } from 'vitest';
import {
  changeErrors,
  changeInputs,
  changeProblems,
  changeableRules,
  initialChangeValues,
  windowChanges,
} from './plan-change';
import { param } from './param-view.fixture';
import type { ParamView, RuleView } from './policy-reading';

// the demo's free plan: burst's capacity opened 1..50, daily's window opened for this test
const burst: RuleView = {
  name: 'burst',
  algorithm: 'TOKEN_BUCKET',
  candidate: false,
  params: [param('capacity', 5, { min: 1, max: 50 }), param('refillPerSecond', 1)],
};
const daily = (windowSource: ParamView['source'] = 'PLAN', windowMs = 86_400_000): RuleView => ({
  name: 'daily',
  algorithm: 'FIXED_WINDOW',
  candidate: false,
  params: [param('limit', 1000), param('windowMs', windowMs, { min: 60_000 }, windowSource)],
});
const closed: RuleView = {
  name: 'in-flight',
  algorithm: 'CONCURRENCY',
  candidate: false,
  params: [param('limit', 2), param('leaseTtlMs', 60_000)],
};

describe('changeableRules', () => {
  it('keeps only what the plan opens, with the value now and the range', () => {
    const rules = changeableRules([burst, daily(), closed]);
    expect(rules.map((r) => [r.name, r.params.map((p) => p.name)])).toEqual([
      ['burst', ['capacity']],
      ['daily', ['windowMs']],
    ]);
    expect(rules[0]?.params[0]).toMatchObject({
      label: 'Capacity',
      integer: true,
      current: 5,
      source: 'PLAN',
      min: 1,
      max: 50,
    });
    // a duration in the largest unit that divides it
    expect(initialChangeValues(rules)).toEqual({
      burst: { capacity: 5 },
      daily: { windowMs: { amount: 1, unit: 'd' } },
    });
  });
});

describe('changeProblems', () => {
  it('refuses values beyond the plan’s bounds and fractions of whole parameters', () => {
    const rules = changeableRules([burst]);
    expect(changeProblems(rules, { burst: { capacity: 80 } })).toEqual({
      'rules.burst.capacity': "At most 50 (the plan's bound)",
    });
    expect(changeProblems(rules, { burst: { capacity: 0 } })).toEqual({
      'rules.burst.capacity': "At least 1 (the plan's bound)",
    });
    expect(changeProblems(rules, { burst: { capacity: 2.5 } })).toEqual({
      'rules.burst.capacity': 'Enter a whole number',
    });
    expect(changeProblems(rules, { burst: { capacity: 50 } })).toEqual({});
    expect(changeProblems(rules, { burst: { capacity: '' } })).toEqual({});
    // a duration's bound in its unit
    const windows = changeableRules([daily()]);
    expect(changeProblems(windows, { daily: { windowMs: { amount: 30, unit: 's' } } })).toEqual({
      'rules.daily.windowMs': "At least 1 minute (the plan's bound)",
    });
  });
});

describe('changeInputs', () => {
  it('sends what differs from the plan and keeps the tenant’s earlier values', () => {
    const rules = changeableRules([burst, daily('TENANT', 3_600_000)]);
    // the capacity left at the plan's value follows the plan; the tenant's window is kept
    expect(changeInputs(rules, initialChangeValues(rules))).toEqual([
      { name: 'daily', windowMs: 3_600_000 },
    ]);
    expect(
      changeInputs(rules, {
        burst: { capacity: 20 },
        daily: { windowMs: { amount: '', unit: 'h' } },
      }),
    ).toEqual([{ name: 'burst', capacity: 20 }]);
    expect(
      changeInputs(rules, {
        burst: { capacity: 5 },
        daily: { windowMs: { amount: 2, unit: 'h' } },
      }),
    ).toEqual([{ name: 'daily', windowMs: 7_200_000 }]);
  });
});

describe('windowChanges', () => {
  it('names the rules whose window moves, back to the plan’s too', () => {
    const plan = changeableRules([burst, daily()]);
    expect(windowChanges(plan, [{ name: 'burst', capacity: 20 }])).toEqual([]);
    expect(windowChanges(plan, [{ name: 'daily', windowMs: 7_200_000 }])).toEqual([
      { rule: 'daily', candidate: false, before: '1 day', after: '2 hours' },
    ]);
    const changed = changeableRules([daily('TENANT', 3_600_000)]);
    expect(windowChanges(changed, [])).toEqual([
      { rule: 'daily', candidate: false, before: '1 hour', after: 'the plan’s window' },
    ]);
    expect(windowChanges(changed, [{ name: 'daily', windowMs: 3_600_000 }])).toEqual([]);
  });
});

describe('changeErrors', () => {
  it('puts a rule’s issue on its field, by the rule’s name', () => {
    const sent = [
      { name: 'daily', windowMs: 1 },
      { name: 'burst', capacity: 80 },
    ];
    expect(
      changeErrors(
        [
          { field: 'input.rules.1.capacity', message: "must be at most 50 (the plan's bound)" },
          { field: 'input.policy', message: 'the plan has no policy named x' },
        ],
        sent,
      ),
    ).toEqual({
      fields: { 'rules.burst.capacity': "must be at most 50 (the plan's bound)" },
      general: ['policy: the plan has no policy named x'],
    });
  });
});
