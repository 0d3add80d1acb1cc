import { describe, expect, it } from 'vitest';
import { candidateInputs, initialTryValues } from './plan-candidates';
import { changeErrors, changeableRules, initialChangeValues } from './plan-change';
import { param } from './param-view.fixture';
import type { RuleView } from './policy-reading';

// burst's capacity opened 1..50 (the tenant has set it to 10); daily is the plan's alone
const burst: RuleView = {
  name: 'burst',
  algorithm: 'TOKEN_BUCKET',
  source: 'PLAN',
  candidate: false,
  params: [param('capacity', 10, { min: 1, max: 50 }, 'TENANT'), param('refillPerSecond', 1)],
};
const daily: RuleView = {
  name: 'daily',
  algorithm: 'FIXED_WINDOW',
  source: 'PLAN',
  candidate: false,
  params: [param('limit', 1000), param('windowMs', 86_400_000)],
};
const running: RuleView = {
  name: 'burst-trial',
  algorithm: 'TOKEN_BUCKET',
  source: 'TENANT',
  candidate: true,
  replaces: 'burst',
  params: [param('capacity', 3, { min: 1, max: 50 }, 'TENANT'), param('refillPerSecond', 1)],
};
const all = [burst, daily, running];
const rules = changeableRules(all);

describe('a tenant trying values of a plan policy in shadow', () => {
  it('proposes one candidate per rule whose values differ, its other values as they are', () => {
    expect(candidateInputs(rules, all, { burst: { capacity: 4 } })).toEqual([
      {
        name: 'burst-trial',
        replaces: 'burst',
        algorithm: 'TOKEN_BUCKET',
        capacity: 4,
        refillPerSecond: 1,
      },
    ]);
  });

  it('proposes nothing for values the checks use now; an emptied value of the tenant’s goes back to the plan’s', () => {
    expect(candidateInputs(rules, all, { burst: { capacity: 10 } })).toEqual([]);
    expect(candidateInputs(rules, all, { burst: { capacity: '' } })).toEqual([
      { name: 'burst-trial', replaces: 'burst', algorithm: 'TOKEN_BUCKET', refillPerSecond: 1 },
    ]);
  });

  it('starts from the running candidate’s values, else from the values in use', () => {
    expect(initialTryValues(rules, all, initialChangeValues(rules))).toEqual({
      burst: { capacity: 3 },
    });
    expect(initialTryValues(rules, [burst, daily], initialChangeValues(rules))).toEqual({
      burst: { capacity: 10 },
    });
  });

  it("puts a refused value on its field, and a refused name or link in the form's alert", () => {
    const sent = [{ name: 'burst' }];
    expect(
      changeErrors(
        [
          { field: 'input.candidateRules.0.capacity', message: 'must be at most 50' },
          { field: 'input.candidateRules.0.name', message: 'is taken' },
        ],
        sent,
        'candidateRules',
      ),
    ).toEqual({
      fields: { 'rules.burst.capacity': 'must be at most 50' },
      general: ['burst: is taken'],
    });
  });
});
