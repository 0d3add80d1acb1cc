import { describe, expect, it } from 'vitest';
import { durationDraft, durationMs } from './duration';
import {
  blankRule,
  countersAfresh,
  draftProblems,
  editorErrors,
  policyDraft,
  proposalDraft,
  readableRule,
  toPolicyInput,
  withAlgorithm,
  type EditablePolicy,
} from './policy-draft';

// the demo's free plan template `api`: tenants may change burst's capacity within 1..50
const api: EditablePolicy = {
  name: 'api',
  description: 'Public API',
  mode: 'ENFORCE',
  failMode: 'OPEN',
  redisTimeoutMs: 50,
  reservationTtlMs: null,
  rules: [
    {
      name: 'burst',
      algorithm: 'TOKEN_BUCKET',
      candidate: false,
      capacity: 5,
      refillPerSecond: 1,
      tenantBounds: [{ param: 'capacity', min: 1, max: 50 }],
    },
    {
      name: 'daily',
      algorithm: 'FIXED_WINDOW',
      candidate: false,
      limit: 1000,
      windowMs: 86_400_000,
    },
    {
      name: 'next',
      algorithm: 'SLIDING_WINDOW_COUNTER',
      candidate: true,
      limit: 10,
      windowMs: 60_000,
    },
  ],
};

describe('durations', () => {
  it('shows milliseconds in the largest unit that divides them, and sends milliseconds', () => {
    expect(durationDraft(86_400_000, 'min')).toEqual({ amount: 1, unit: 'd' });
    expect(durationDraft(90_000, 'min')).toEqual({ amount: 90, unit: 's' });
    expect(durationDraft(1500, 's')).toEqual({ amount: 1500, unit: 'ms' });
    expect(durationDraft(null, 'min')).toEqual({ amount: '', unit: 'min' });
    expect(durationMs({ amount: 1.5, unit: 'min' })).toBe(90_000);
    expect(durationMs({ amount: '', unit: 'min' })).toBeUndefined();
  });
});

describe('policyDraft and toPolicyInput', () => {
  it('gives back the stored policy unchanged, bounds included for a template', () => {
    const input = toPolicyInput(policyDraft(api, 'UTC'), true);
    expect(input).toEqual({
      name: 'api',
      description: 'Public API',
      mode: 'ENFORCE',
      failMode: 'OPEN',
      redisTimeoutMs: 50,
      reservationTtlMs: null,
      rules: [
        {
          name: 'burst',
          algorithm: 'TOKEN_BUCKET',
          capacity: 5,
          refillPerSecond: 1,
          tenantBounds: [{ param: 'capacity', min: 1, max: 50 }],
        },
        {
          name: 'daily',
          algorithm: 'FIXED_WINDOW',
          limit: 1000,
          windowMs: 86_400_000,
          tenantBounds: [],
        },
      ],
      candidateRules: [
        { name: 'next', algorithm: 'SLIDING_WINDOW_COUNTER', limit: 10, windowMs: 60_000 },
      ],
    });
    // a tenant's own policy has no bounds to send
    expect(toPolicyInput(policyDraft(api, 'UTC'), false).rules[0]).not.toHaveProperty(
      'tenantBounds',
    );
  });

  it('sends only the parameters of the rule’s algorithm, a calendar instead of a window', () => {
    const draft = policyDraft(undefined, 'Europe/Paris');
    const rule = {
      ...withAlgorithm(draft.rules[0] ?? blankRule('UTC'), 'FIXED_WINDOW'),
      name: 'daily',
      capacity: 9,
      limit: 1000,
      windowMs: { amount: 5, unit: 'min' as const },
    };
    draft.name = ' reports ';
    draft.rules = [{ ...rule, calendar: { ...rule.calendar, on: true } }];
    draft.reservations = true;
    expect(toPolicyInput(draft, false)).toMatchObject({
      name: 'reports',
      reservationTtlMs: 600_000,
      rules: [
        {
          name: 'daily',
          algorithm: 'FIXED_WINDOW',
          limit: 1000,
          calendar: { unit: 'DAY', timeZone: 'Europe/Paris' },
        },
      ],
    });
    expect(toPolicyInput(draft, false).rules[0]).not.toHaveProperty('windowMs');
    expect(toPolicyInput(draft, false).rules[0]).not.toHaveProperty('capacity');
    draft.rules = [rule];
    expect(toPolicyInput(draft, false).rules[0]).toMatchObject({ windowMs: 300_000 });
  });

  it('drops the bounds of parameters a new algorithm does not have', () => {
    const burst = policyDraft(api, 'UTC').rules[0] ?? blankRule('UTC');
    expect(withAlgorithm(burst, 'LEAKY_BUCKET').tenantBounds).toHaveLength(1);
    expect(withAlgorithm(burst, 'GCRA').tenantBounds).toEqual([]);
    // the values typed so far are kept
    expect(withAlgorithm(burst, 'LEAKY_BUCKET').capacity).toBe(5);
  });
});

describe('readableRule', () => {
  it('reads durations in ms and a calendar when on', () => {
    const rule = {
      ...blankRule('Asia/Tokyo'),
      algorithm: 'FIXED_WINDOW' as const,
      limit: 10,
      windowMs: { amount: 2, unit: 'h' as const },
    };
    expect(readableRule(rule)).toEqual({
      algorithm: 'FIXED_WINDOW',
      limit: 10,
      windowMs: 7_200_000,
    });
    expect(readableRule({ ...rule, calendar: { ...rule.calendar, on: true } })).toEqual({
      algorithm: 'FIXED_WINDOW',
      limit: 10,
      calendar: { unit: 'DAY', timeZone: 'Asia/Tokyo' },
    });
  });
});

describe('draftProblems', () => {
  it('asks for the names and the values a rule needs, not a GCRA’s burst', () => {
    const draft = policyDraft(undefined, 'UTC');
    draft.rules = [
      { ...blankRule('UTC'), algorithm: 'GCRA', name: 'smooth' },
      {
        ...blankRule(''),
        algorithm: 'FIXED_WINDOW',
        calendar: { on: true, unit: 'DAY', timeZone: '' },
      },
    ];
    expect(draftProblems(draft)).toEqual({
      name: 'Enter a name',
      'rules.0.limit': 'Enter a value',
      'rules.0.periodMs': 'Enter a value',
      'rules.1.name': 'Enter a name',
      'rules.1.limit': 'Enter a value',
      'rules.1.calendar.timeZone': 'Choose a time zone',
    });
    expect(draftProblems({ ...draft, rules: [] })).toMatchObject({
      rules: 'A policy needs at least one rule',
    });
  });
});

describe('editorErrors', () => {
  it('puts the API’s issues on the fields they name, the others apart', () => {
    expect(
      editorErrors([
        { field: 'input.rules.0.capacity', message: 'must be at least 1' },
        { field: 'input.rules.1.windowMs', message: 'must be at least 1000' },
        { field: 'input.rules.2.calendar', message: 'must be { unit, timeZone }' },
        { field: 'input.rules.0.tenantBounds.0.min', message: 'must not exceed max' },
        { field: 'input.candidateRules.0.limit', message: 'must be at least 1' },
        { field: 'input.name', message: 'The plan has a policy named api.' },
        { field: 'input.rules.3', message: 'give either windowMs or calendar, not both' },
        { field: 'input', message: 'tenant demo would be invalid: …' },
      ]),
    ).toEqual({
      fields: {
        'rules.0.capacity': 'must be at least 1',
        'rules.1.windowMs': 'must be at least 1000',
        'rules.2.calendar.timeZone': 'must be { unit, timeZone }',
        'rules.0.tenantBounds.0.min': 'must not exceed max',
        'candidateRules.0.limit': 'must be at least 1',
        name: 'The plan has a policy named api.',
      },
      general: [
        'Rule 4: give either windowMs or calendar, not both',
        'tenant demo would be invalid: …',
      ],
    });
  });
});

describe('countersAfresh', () => {
  const edit = (change: (draft: ReturnType<typeof policyDraft>) => void) => {
    const draft = policyDraft(api, 'UTC');
    change(draft);
    return countersAfresh(api.rules, toPolicyInput(draft, true));
  };

  it('lists rules whose algorithm changes', () => {
    expect(
      edit((draft) => {
        draft.rules[0] = withAlgorithm(draft.rules[0] ?? blankRule('UTC'), 'LEAKY_BUCKET');
      }),
    ).toEqual([{ rule: 'burst', candidate: false, before: 'token bucket', after: 'leaky bucket' }]);
  });

  it('lists window rules whose window or calendar unit changes, live or candidate', () => {
    expect(
      edit((draft) => {
        const daily = draft.rules[1];
        const next = draft.candidateRules[0];
        if (!daily || !next) throw new Error('the draft lost a rule');
        daily.calendar = { on: true, unit: 'DAY', timeZone: 'Europe/Paris' };
        next.windowMs = { amount: 2, unit: 'min' };
      }),
    ).toEqual([
      {
        rule: 'daily',
        candidate: false,
        before: 'fixed window per 1 day',
        after: 'fixed window per calendar day',
      },
      {
        rule: 'next',
        candidate: true,
        before: 'sliding window counter per 1 minute',
        after: 'sliding window counter per 2 minutes',
      },
    ]);
  });

  it('keeps the counters of other edits, new and renamed rules', () => {
    expect(
      edit((draft) => {
        const burst = draft.rules[0];
        const daily = draft.rules[1];
        if (!burst || !daily) throw new Error('the draft lost a rule');
        burst.capacity = 50;
        daily.name = 'per-day';
        daily.windowMs = { amount: 1, unit: 'h' };
        draft.rules.push({ ...blankRule('UTC'), name: 'extra', capacity: 1, refillPerSecond: 1 });
      }),
    ).toEqual([]);
  });
});

describe('proposalDraft (try in shadow)', () => {
  const live: EditablePolicy = {
    ...api,
    rules: [
      ...api.rules.filter((rule) => !rule.candidate),
      {
        name: 'inflight',
        algorithm: 'CONCURRENCY',
        candidate: false,
        limit: 2,
        leaseTtlMs: 60_000,
      },
    ],
  };

  it('copies each live rule but concurrency as a candidate proposing new values for it', () => {
    const input = toPolicyInput(
      { ...policyDraft(live, 'UTC'), candidateRules: proposalDraft(live, 'UTC') },
      false,
    );
    expect(input.candidateRules).toEqual([
      {
        name: 'burst-next',
        replaces: 'burst',
        algorithm: 'TOKEN_BUCKET',
        capacity: 5,
        refillPerSecond: 1,
      },
      {
        name: 'daily-next',
        replaces: 'daily',
        algorithm: 'FIXED_WINDOW',
        limit: 1000,
        windowMs: 86_400_000,
      },
    ]);
  });

  it('starts from the running candidates, their links kept', () => {
    const trying: EditablePolicy = {
      ...live,
      rules: [
        ...live.rules,
        {
          name: 'tight',
          algorithm: 'GCRA',
          candidate: true,
          replaces: 'burst',
          limit: 2,
          periodMs: 1000,
        },
      ],
    };
    expect(proposalDraft(trying, 'UTC').map((rule) => [rule.name, rule.replaces])).toEqual([
      ['tight', 'burst'],
    ]);
  });
});
