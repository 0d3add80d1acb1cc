import { describe, expect, it } from 'vitest';
import {
  blankRuleValues,
  boundsHint,
  identifierInput,
  identifierProblem,
  lockedParams,
  offeredParams,
  overrideFormErrors,
  ruleValuesOf,
  toRuleInputs,
  windowChanges,
  type RuleView,
} from './override-rules';

const param = (name: string, value: number, bounds?: { min?: number; max?: number }) => ({
  name,
  value,
  calendar: null,
  changeable: bounds !== undefined,
  min: bounds?.min ?? null,
  max: bounds?.max ?? null,
});

// the demo's free plan: burst's capacity opened to tenants (1..50), the rest closed
const burst: RuleView = {
  name: 'burst',
  algorithm: 'TOKEN_BUCKET',
  candidate: false,
  params: [param('capacity', 5, { min: 1, max: 50 }), param('refillPerSecond', 1)],
};
const daily: RuleView = {
  name: 'daily',
  algorithm: 'FIXED_WINDOW',
  candidate: false,
  params: [param('limit', 1000), param('windowMs', 86_400_000)],
};

describe('offeredParams', () => {
  it('offers a tenant admin only what the plan opens, with its bounds', () => {
    expect(offeredParams(burst, { template: true, operator: false })).toEqual([
      expect.objectContaining({ name: 'capacity', current: 5, min: 1, max: 50 }),
    ]);
    expect(offeredParams(daily, { template: true, operator: false })).toEqual([]);
  });

  it('offers every parameter of the algorithm to operators and on the tenant’s own policies', () => {
    expect(offeredParams(daily, { template: true, operator: true }).map((p) => p.name)).toEqual([
      'limit',
      'windowMs',
    ]);
    const gcra: RuleView = {
      name: 'smooth',
      algorithm: 'GCRA',
      candidate: false,
      params: [param('limit', 10), param('periodMs', 1000)],
    };
    // a parameter the rule leaves unset (burst) is offered too, with no current value
    expect(offeredParams(gcra, { template: false, operator: false })).toEqual([
      expect.objectContaining({ name: 'limit', current: 10, min: null, max: null }),
      expect.objectContaining({ name: 'periodMs', current: 1000 }),
      expect.objectContaining({ name: 'burst', current: null }),
    ]);
  });
});

describe('boundsHint', () => {
  it('says the plan’s range, or nothing', () => {
    expect(boundsHint({ min: 1, max: 50 })).toBe('The plan allows 1 to 50.');
    expect(boundsHint({ min: null, max: 100 })).toBe('The plan allows at most 100.');
    expect(boundsHint({ min: null, max: null })).toBeNull();
  });
});

describe('toRuleInputs and ruleValuesOf', () => {
  const offered = [
    { rule: 'burst', params: ['capacity', 'refillPerSecond'] as const },
    { rule: 'daily', params: ['limit', 'windowMs'] as const },
  ];

  it('sends the rules with a value, in the policy’s order, empty fields left out', () => {
    expect(
      toRuleInputs(
        { daily: { limit: 500, windowMs: '' }, burst: { capacity: '', refillPerSecond: '' } },
        offered,
      ),
    ).toEqual([{ name: 'daily', limit: 500 }]);
    expect(
      toRuleInputs({ burst: { capacity: 40 }, daily: { windowMs: 3_600_000 } }, offered),
    ).toEqual([
      { name: 'burst', capacity: 40 },
      { name: 'daily', windowMs: 3_600_000 },
    ]);
  });

  it('keeps a calendar window the form does not edit', () => {
    const kept = [{ name: 'daily', calendar: { unit: 'DAY', timeZone: 'Europe/Paris' } }];
    expect(toRuleInputs({ daily: { limit: 10 } }, offered, kept)).toEqual([
      { name: 'daily', limit: 10, calendar: { unit: 'DAY', timeZone: 'Europe/Paris' } },
    ]);
  });

  it('reads an override’s rules back as values', () => {
    expect(
      ruleValuesOf([{ name: 'burst', capacity: 40, refillPerSecond: null, calendar: null }]),
    ).toEqual({ burst: { capacity: 40 } });
  });
});

describe('overrideFormErrors', () => {
  it('names a rule’s field by the rule, as the form does', () => {
    const sent = [
      { name: 'daily', limit: 5 },
      { name: 'burst', capacity: 80 },
    ];
    expect(
      overrideFormErrors(
        [
          { field: 'input.rules.1.capacity', message: "must be at most 50 (the plan's bound)" },
          { field: 'input.identifier', message: 'exists' },
          { field: 'input.clearExpiry', message: 'cannot be set with expiresAt' },
          { field: 'input.rules.0', message: 'must set at least one parameter' },
        ],
        sent,
      ),
    ).toEqual({
      fields: {
        'rules.burst.capacity': "must be at most 50 (the plan's bound)",
        identifier: 'exists',
        expiresAt: 'cannot be set with expiresAt',
      },
      general: ['daily: must set at least one parameter'],
    });
  });
});

describe('windowChanges', () => {
  it('finds the windows an override moves its identifiers to, and back', () => {
    expect(windowChanges([burst, daily], [], [{ name: 'daily', windowMs: 3_600_000 }])).toEqual([
      { rule: 'daily', before: '1 day', after: '1 hour' },
    ]);
    // a limit is no window, and the same window is no change
    expect(
      windowChanges([burst, daily], [], [{ name: 'daily', limit: 5, windowMs: 86_400_000 }]),
    ).toEqual([]);
    // deleting an override with its own window: back to the policy's
    expect(windowChanges([daily], [{ name: 'daily', windowMs: 60_000 }], [])).toEqual([
      { rule: 'daily', before: '1 minute', after: '1 day' },
    ]);
  });
});

describe('identifiers', () => {
  it('ends a prefix with one *, and says what cannot be sent', () => {
    expect(identifierInput('PREFIX', ' premium_ ')).toBe('premium_*');
    expect(identifierInput('PREFIX', 'premium_*')).toBe('premium_*');
    expect(identifierInput('EXACT', 'user_42')).toBe('user_42');
    expect(identifierProblem('EXACT', 'user_*')).toMatch(/prefix/);
    expect(identifierProblem('PREFIX', '*')).toBe('Enter the start of the identifiers');
    expect(identifierProblem('EXACT', 'x'.repeat(257))).toBe('At most 256 bytes');
    expect(identifierProblem('EXACT', 'user_42')).toBeNull();
  });
});

describe('lockedParams', () => {
  it('lists what an override sets beyond what the user may set', () => {
    const offered = [{ rule: 'burst', params: ['capacity'] as const }];
    expect(lockedParams([{ name: 'burst', capacity: 9 }], offered, false)).toEqual([]);
    expect(
      lockedParams(
        [
          { name: 'burst', capacity: 9, refillPerSecond: 5 },
          { name: 'daily', calendar: { unit: 'DAY', timeZone: 'UTC' } },
        ],
        offered,
        false,
      ),
    ).toEqual(['burst.refillPerSecond', 'daily.calendar']);
  });
});

describe('blankRuleValues', () => {
  it('gives every offered parameter a field, with the values it has', () => {
    expect(
      blankRuleValues(
        [
          { rule: 'burst', params: ['capacity', 'refillPerSecond'] },
          { rule: 'daily', params: ['limit'] },
        ],
        { burst: { capacity: 9 }, gone: { limit: 1 } },
      ),
    ).toEqual({ burst: { capacity: 9, refillPerSecond: '' }, daily: { limit: '' } });
  });
});
