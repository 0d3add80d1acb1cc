import { MAX_RULES } from '@sluice/algorithms';
import { describe, expect, it } from 'vitest';
import { PolicyValidationError, type FieldIssue } from './errors';
import {
  compileTenant,
  DEFAULT_RESERVATION_TTL_MS,
  MAX_OVERRIDES,
  MAX_POLICIES,
  type PolicyInput,
  type TenantConfigInput,
} from './schema';

const policy = (over: Partial<PolicyInput> = {}): PolicyInput => ({
  id: 'pol_api',
  name: 'api',
  rules: [
    { name: 'per-second', algorithm: 'token_bucket', capacity: 20, refillPerSecond: 10 },
    { name: 'daily', algorithm: 'fixed_window', limit: 10_000, windowMs: 86_400_000 },
  ],
  ...over,
});

const tenant = (over: Partial<TenantConfigInput> = {}): TenantConfigInput => ({
  tenantId: 'tnt_acme',
  slug: 'acme',
  status: 'active',
  policies: [policy()],
  ...over,
});

/** Every issue compileTenant reports for `input` (fails the test if it compiles). */
function issues(input: unknown): FieldIssue[] {
  try {
    compileTenant(input);
  } catch (error) {
    if (error instanceof PolicyValidationError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a PolicyValidationError');
}

function expectIssue(input: unknown, path: string, message: string | RegExp): void {
  expect(issues(input)).toContainEqual({
    path,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  });
}

const bad = <T>(value: T) => value as never;

describe('compileTenant: the compiled form', () => {
  it('fills defaults, normalizes rules through the algorithms lib and keys policies by name', () => {
    const compiled = compileTenant(
      tenant({
        policies: [
          policy({
            candidateRules: [{ name: 'next', algorithm: 'gcra', limit: 5, periodMs: 1000 }],
            overrides: [
              {
                id: 'ovr_1',
                identifier: 'premium_*',
                rules: { 'per-second': { capacity: 200 } },
                expiresAt: '2030-01-01T00:00:00+01:00',
                reason: 'premium plan',
              },
              { id: 'ovr_2', identifier: 'bob', rules: { next: { burst: 9 } }, expiresAt: 5 },
            ],
          }),
        ],
      }),
    );
    expect(compiled.version).toBe('next');
    expect(compiled.policies['api']).toEqual({
      id: 'pol_api',
      name: 'api',
      description: '',
      mode: 'enforce',
      failMode: 'open',
      redisTimeoutMs: 50,
      rules: [
        {
          name: 'per-second',
          rule: { algorithm: 'token_bucket', capacity: 20, refillPerSecond: 10 },
        },
        { name: 'daily', rule: { algorithm: 'fixed_window', limit: 10_000, windowMs: 86_400_000 } },
      ],
      candidateRules: [
        { name: 'next', rule: { algorithm: 'gcra', limit: 5, periodMs: 1000, burst: 5 } },
      ],
      overrides: [
        {
          id: 'ovr_1',
          match: 'prefix',
          identifier: 'premium_',
          rules: {
            'per-second': { algorithm: 'token_bucket', capacity: 200, refillPerSecond: 10 },
          },
          expiresAt: Date.UTC(2029, 11, 31, 23),
          reason: 'premium plan',
        },
        {
          id: 'ovr_2',
          match: 'exact',
          identifier: 'bob',
          rules: { next: { algorithm: 'gcra', limit: 5, periodMs: 1000, burst: 9 } },
          expiresAt: 5,
          reason: '',
        },
      ],
    });
  });

  it('takes an explicit version and refuses a bad one', () => {
    expect(compileTenant(tenant(), 7).version).toBe(7);
    for (const version of [0, -1, 1.5, NaN]) {
      expect(() => compileTenant(tenant(), version)).toThrow(/version: must be an integer >= 1/);
    }
  });

  it('lists every issue of the input at once, each at its field', () => {
    const input = tenant({ slug: 'Acme!', policies: [policy({ redisTimeoutMs: 0 })] });
    expect(issues({ ...input, extra: true })).toEqual([
      { path: 'slug', message: 'must be 1 to 63 lowercase letters, digits or inner hyphens' },
      { path: 'policies[0].redisTimeoutMs', message: 'must be at least 1 ms' },
      { path: 'extra', message: 'unknown field' },
    ]);
  });

  it('refuses what is not an object', () => {
    for (const input of [null, 'tenant', 42, []]) {
      expect(issues(input)).toEqual([
        { path: '', message: 'must be a tenant configuration object' },
      ]);
    }
    expectIssue(tenant({ policies: [bad(null)] }), 'policies[0]', 'must be a policy object');
    expectIssue(
      tenant({ policies: [policy({ rules: [bad('r')] })] }),
      'policies[0].rules[0]',
      'must be a rule object',
    );
  });
});

describe('compileTenant: ids and names', () => {
  it.each(['tnt acme', 'tnt{x}', '', 'a'.repeat(65), 'é'])('refuses tenant id %j', (id) => {
    expectIssue(tenant({ tenantId: id }), 'tenantId', 'must match ^[A-Za-z0-9_-]{1,64}$');
  });

  it('accepts prefixed ids of up to 64 characters', () => {
    const id = `pol_${'x'.repeat(60)}`;
    expect(compileTenant(tenant({ policies: [policy({ id })] })).policies['api']?.id).toBe(id);
  });

  it.each(['pol 1', 'pol:1', ''])('refuses policy id %j and override id %j', (id) => {
    expectIssue(tenant({ policies: [policy({ id })] }), 'policies[0].id', /^must match/);
    const override = { id, identifier: 'x', rules: { daily: { limit: 1 } } };
    expectIssue(
      tenant({ policies: [policy({ overrides: [override] })] }),
      'policies[0].overrides[0].id',
      /^must match/,
    );
  });

  it.each(['API', '-api', '_api', 'a.b', 'a:b', 'a b', '', 'a'.repeat(64)])(
    'refuses policy and rule name %j',
    (name) => {
      expectIssue(tenant({ policies: [policy({ name })] }), 'policies[0].name', /^must match/);
      const rules = [{ name, algorithm: 'gcra' as const, limit: 1, periodMs: 1000 }];
      expectIssue(
        tenant({ policies: [policy({ rules })] }),
        'policies[0].rules[0].name',
        /^must match/,
      );
    },
  );

  it.each(['a', '0', 'per-second', 'plan_2', 'a'.repeat(63)])('accepts name %j', (name) => {
    expect(Object.keys(compileTenant(tenant({ policies: [policy({ name })] })).policies)).toEqual([
      name,
    ]);
  });

  it.each(['-acme', 'acme-', 'ac_me', 'ACME', ''])('refuses slug %j', (slug) => {
    expectIssue(tenant({ slug }), 'slug', /lowercase letters/);
  });

  it('refuses an unknown status, mode or fail mode', () => {
    expectIssue(tenant({ status: bad('paused') }), 'status', 'must be active or suspended');
    expectIssue(
      tenant({ policies: [policy({ mode: bad('dry') })] }),
      'policies[0].mode',
      'must be enforce or shadow',
    );
    expectIssue(
      tenant({ policies: [policy({ failMode: bad('maybe') })] }),
      'policies[0].failMode',
      'must be open, closed or local',
    );
  });

  it('bounds redisTimeoutMs to whole ms in 1..1000', () => {
    const at = 'policies[0].redisTimeoutMs';
    const timeout = (redisTimeoutMs: number) => tenant({ policies: [policy({ redisTimeoutMs })] });
    expectIssue(timeout(0), at, 'must be at least 1 ms');
    expectIssue(timeout(1001), at, 'must be at most 1000 ms');
    expectIssue(timeout(2.5), at, 'must be an integer');
    expect(compileTenant(timeout(1000)).policies['api']?.redisTimeoutMs).toBe(1000);
  });
});

describe('compileTenant: uniqueness', () => {
  it('refuses two policies with one name or one id', () => {
    const found = issues(tenant({ policies: [policy(), policy()] }));
    expect(found).toContainEqual({
      path: 'policies[1].name',
      message: 'duplicate policy name api',
    });
    expect(found).toContainEqual({
      path: 'policies[1].id',
      message: 'duplicate policy id pol_api',
    });
  });

  it('refuses a rule name twice in a policy, candidates included', () => {
    const rule = { name: 'r', algorithm: 'gcra' as const, limit: 1, periodMs: 1000 };
    expectIssue(
      tenant({ policies: [policy({ rules: [rule, rule] })] }),
      'policies[0].rules[1].name',
      'duplicate rule name r',
    );
    expectIssue(
      tenant({ policies: [policy({ rules: [rule], candidateRules: [rule] })] }),
      'policies[0].candidateRules[0].name',
      'duplicate rule name r',
    );
  });

  it("refuses a live rule whose key would be a candidate's (c-<name>)", () => {
    const rule = (name: string) => ({ name, algorithm: 'gcra' as const, limit: 1, periodMs: 1000 });
    expectIssue(
      tenant({ policies: [policy({ rules: [rule('c-x')], candidateRules: [rule('x')] })] }),
      'policies[0].candidateRules[0].name',
      /counter key c-x is also rule c-x's/,
    );
  });

  it('limits candidate names to 62 characters (their keys add c-)', () => {
    const rule = { name: 'a'.repeat(63), algorithm: 'gcra' as const, limit: 1, periodMs: 1000 };
    expectIssue(
      tenant({ policies: [policy({ candidateRules: [rule] })] }),
      'policies[0].candidateRules[0].name',
      'candidate rule names have at most 62 characters',
    );
  });

  it('refuses an override id twice in the tenant and two overrides on one target', () => {
    const override = { id: 'ovr_1', identifier: 'bob', rules: { daily: { limit: 5 } } };
    const other = policy({ id: 'pol_2', name: 'other', overrides: [override] });
    expectIssue(
      tenant({ policies: [policy({ overrides: [override] }), other] }),
      'policies[1].overrides[0].id',
      'duplicate override id ovr_1',
    );
    expectIssue(
      tenant({ policies: [policy({ overrides: [override, { ...override, id: 'ovr_2' }] })] }),
      'policies[0].overrides[1].identifier',
      'another override already matches exact "bob"',
    );
  });
});

describe('compileTenant: rule parameters (limits from the algorithms lib)', () => {
  const withRule = (rule: Record<string, unknown>) =>
    tenant({ policies: [policy({ rules: [{ name: 'r', ...rule } as never] })] });
  const at = 'policies[0].rules[0]';

  it.each([
    [{ algorithm: 'token_bucket', capacity: 0, refillPerSecond: 1 }, 'capacity', /integer from 1/],
    [{ algorithm: 'token_bucket', capacity: 1.5, refillPerSecond: 1 }, 'capacity', /integer/],
    [{ algorithm: 'token_bucket', capacity: 5, refillPerSecond: 0 }, 'refillPerSecond', /above 0/],
    [{ algorithm: 'token_bucket', capacity: 5 }, 'refillPerSecond', /got undefined/],
    [
      { algorithm: 'token_bucket', capacity: 1e9, refillPerSecond: 0.001 },
      'refillPerSecond',
      /too slow/,
    ],
    [{ algorithm: 'leaky_bucket', capacity: 5, leakPerSecond: 2e6 }, 'leakPerSecond', /1000000/],
    [{ algorithm: 'fixed_window', limit: 5, windowMs: 999 }, 'windowMs', /from 1000/],
    [
      { algorithm: 'fixed_window', limit: 5, windowMs: 32 * 86_400_000 },
      'windowMs',
      /to 2678400000/,
    ],
    [
      { algorithm: 'fixed_window', limit: 5, calendar: { unit: 'week', timeZone: 'UTC' } },
      'calendar.unit',
      /day or month/,
    ],
    [
      { algorithm: 'fixed_window', limit: 5, calendar: { unit: 'day', timeZone: 'Mars/Olympus' } },
      'calendar.timeZone',
      /IANA time zone/,
    ],
    [{ algorithm: 'sliding_window_log', limit: 0, windowMs: 1000 }, 'limit', /integer from 1/],
    [{ algorithm: 'sliding_window_counter', limit: 5, windowMs: '1s' }, 'windowMs', /"1s"/],
    [{ algorithm: 'gcra', limit: 5, periodMs: 100 }, 'periodMs', /from 1000/],
    [{ algorithm: 'gcra', limit: 5, periodMs: 1000, burst: 0 }, 'burst', /integer from 1/],
  ])('refuses %j at .%s', (rule, field, message) => {
    expectIssue(withRule(rule), `${at}.${field}`, message);
  });

  it('refuses an unknown algorithm, both window kinds, and unknown parameters', () => {
    expectIssue(withRule({ algorithm: 'leaky' }), `${at}.algorithm`, 'unknown algorithm "leaky"');
    expectIssue(
      withRule({
        algorithm: 'fixed_window',
        limit: 5,
        windowMs: 1000,
        calendar: { unit: 'day', timeZone: 'UTC' },
      }),
      at,
      'give either windowMs or calendar, not both',
    );
    expectIssue(
      withRule({ algorithm: 'gcra', limit: 5, periodMs: 1000, capacity: 5 }),
      `${at}.capacity`,
      'unknown parameter for gcra',
    );
    expectIssue(
      withRule({
        algorithm: 'fixed_window',
        limit: 5,
        calendar: { unit: 'day', timeZone: 'UTC', tz: 'x' },
      }),
      `${at}.calendar.tz`,
      'unknown parameter for fixed_window',
    );
  });

  it('needs 1..MAX_RULES rules, candidates included in the count', () => {
    expectIssue(
      tenant({ policies: [policy({ rules: [] })] }),
      'policies[0].rules',
      'must have at least one rule',
    );
    const many = (n: number, label: string) =>
      Array.from({ length: n }, (_, i) => ({
        name: `${label}${i}`,
        algorithm: 'gcra' as const,
        limit: 1,
        periodMs: 1000,
      }));
    expectIssue(
      tenant({ policies: [policy({ rules: many(MAX_RULES + 1, 'r') })] }),
      'policies[0].rules',
      `must have at most ${MAX_RULES} rules`,
    );
    expectIssue(
      tenant({ policies: [policy({ rules: many(30, 'r'), candidateRules: many(3, 'c') })] }),
      'policies[0].candidateRules',
      /together must be at most 32/,
    );
  });

  it('bounds the number of policies and overrides', () => {
    const policies = Array.from({ length: MAX_POLICIES + 1 }, (_, i) =>
      policy({ id: `pol_${i}`, name: `p${i}` }),
    );
    expectIssue(tenant({ policies }), 'policies', `must have at most ${MAX_POLICIES} policies`);
    const overrides = Array.from({ length: MAX_OVERRIDES + 1 }, (_, i) => ({
      id: `ovr_${i}`,
      identifier: `id${i}`,
      rules: { daily: { limit: 1 } },
    }));
    expectIssue(
      tenant({ policies: [policy({ overrides })] }),
      'policies[0].overrides',
      `must have at most ${MAX_OVERRIDES} overrides`,
    );
  });
});

describe('compileTenant: overrides', () => {
  const withOverride = (override: Record<string, unknown>) =>
    tenant({
      policies: [
        policy({
          candidateRules: [{ name: 'next', algorithm: 'gcra', limit: 5, periodMs: 1000 }],
          overrides: [{ id: 'ovr_1', identifier: 'bob', rules: {}, ...override } as never],
        }),
      ],
    });
  const at = 'policies[0].overrides[0]';
  const compiledOverride = (override: Record<string, unknown>) =>
    compileTenant(withOverride(override)).policies['api']?.overrides[0];

  it('refuses rule names the policy does not have', () => {
    expectIssue(
      withOverride({ rules: { hourly: { limit: 5 } } }),
      `${at}.rules.hourly`,
      'the policy has no rule named hourly',
    );
  });

  it('applies to candidate rules too', () => {
    expect(compiledOverride({ rules: { next: { limit: 50 } } })?.rules).toEqual({
      next: { algorithm: 'gcra', limit: 50, periodMs: 1000, burst: 50 },
    });
  });

  it('validates each merged rule again, at the override field', () => {
    expectIssue(
      withOverride({ rules: { 'per-second': { capacity: -1 } } }),
      `${at}.rules.per-second.capacity`,
      /integer from 1/,
    );
    expectIssue(
      withOverride({ rules: { daily: { calendar: { unit: 'day', timeZone: 'UTC' } } } }),
      `${at}.rules.daily`,
      'give either windowMs or calendar, not both',
    );
    expectIssue(
      withOverride({ rules: { daily: { capacity: 5 } } }),
      `${at}.rules.daily.capacity`,
      'unknown parameter for fixed_window',
    );
    expectIssue(
      withOverride({ rules: { daily: { algorithm: 'gcra' } } }),
      `${at}.rules.daily`,
      'an override changes parameters only, not the algorithm or the name',
    );
    expectIssue(withOverride({ rules: {} }), `${at}.rules`, 'must change at least one rule');
    expectIssue(withOverride({ rules: { daily: 5 } }), `${at}.rules.daily`, /must be an object/);
  });

  it.each([
    ['2030-01-01T00:00:00Z', Date.UTC(2030, 0, 1)],
    ['2030-01-01T00:00:00.250Z', Date.UTC(2030, 0, 1, 0, 0, 0, 250)],
    ['2030-01-01T02:00:00+02:00', Date.UTC(2030, 0, 1)],
    [1_893_456_000_000, 1_893_456_000_000],
    [0, 0],
  ])('reads expiresAt %j as ms %d', (expiresAt, ms) => {
    expect(compiledOverride({ rules: { daily: { limit: 1 } }, expiresAt })?.expiresAt).toBe(ms);
  });

  it.each(['2030-01-01', '2030-01-01T00:00:00', 'tomorrow', '', -1, 1.5, 9e15, true])(
    'refuses expiresAt %j',
    (expiresAt) => {
      expectIssue(
        withOverride({ rules: { daily: { limit: 1 } }, expiresAt }),
        `${at}.expiresAt`,
        /ISO 8601 date-time with a zone/,
      );
    },
  );

  it.each([
    [{ identifier: 'premium_*' }, 'prefix', 'premium_'],
    [{ identifier: 'premium_*', match: 'prefix' }, 'prefix', 'premium_'],
    [{ identifier: 'premium_', match: 'prefix' }, 'prefix', 'premium_'],
    [{ identifier: 'star*', match: 'exact' }, 'exact', 'star*'],
    [{ identifier: 'bob' }, 'exact', 'bob'],
    [{ identifier: '{any bytes}\n' }, 'exact', '{any bytes}\n'],
  ])('reads %j as %s %j', (target, match, identifier) => {
    expect(compiledOverride({ ...target, rules: { daily: { limit: 1 } } })).toMatchObject({
      match,
      identifier,
    });
  });

  it.each([
    [{ identifier: 'pre*mium_*' }, 'a prefix may only end with *; no other wildcard is supported'],
    [{ identifier: '*' }, 'the prefix (without *) must be 1 to 256 bytes, got 0 bytes'],
    [{ identifier: '', match: 'exact' }, 'the identifier must be 1 to 256 bytes, got 0 bytes'],
    [{ identifier: 'é'.repeat(129) }, 'the identifier must be 1 to 256 bytes, got 258 bytes'],
    [{ identifier: 'x', match: 'glob' }, 'must be exact or prefix'],
  ])('refuses target %j', (target, message) => {
    const found = issues(withOverride({ ...target, rules: { daily: { limit: 1 } } }));
    expect(found.map((issue) => issue.message)).toContain(message);
  });

  it('bounds the reason', () => {
    expectIssue(
      withOverride({ rules: { daily: { limit: 1 } }, reason: 'x'.repeat(501) }),
      `${at}.reason`,
      /500/,
    );
  });
});

describe('compileTenant: concurrency rules and reservations', () => {
  const inflight = {
    name: 'inflight',
    algorithm: 'concurrency' as const,
    limit: 5,
    leaseTtlMs: 60_000,
  };
  const tokens = {
    name: 'tokens',
    algorithm: 'token_bucket' as const,
    capacity: 100_000,
    refillPerSecond: 100,
  };
  const compiledPolicy = (over: Partial<PolicyInput>) =>
    compileTenant(tenant({ policies: [policy(over)] })).policies['api'];

  it('keeps concurrency rules beside the rate rules, one all-or-nothing group, and the reservation TTL (default 10 min)', () => {
    expect(compiledPolicy({ rules: [inflight, tokens], reservations: {} })).toMatchObject({
      rules: [
        {
          name: 'tokens',
          rule: { algorithm: 'token_bucket', capacity: 100_000, refillPerSecond: 100 },
        },
      ],
      concurrencyRules: [
        { name: 'inflight', rule: { algorithm: 'concurrency', limit: 5, leaseTtlMs: 60_000 } },
      ],
      reservations: { ttlMs: DEFAULT_RESERVATION_TTL_MS },
    });
    expect(DEFAULT_RESERVATION_TTL_MS).toBe(600_000);
    expect(
      compiledPolicy({ rules: [tokens], reservations: { ttlMs: 1000 } })?.reservations,
    ).toEqual({
      ttlMs: 1000,
    });
  });

  it('a policy of concurrency rules only has no rate rules; without either setting, neither field exists', () => {
    expect(compiledPolicy({ rules: [inflight] })).toMatchObject({
      rules: [],
      concurrencyRules: [{ name: 'inflight' }],
    });
    const plain = compiledPolicy({});
    expect(plain).not.toHaveProperty('concurrencyRules');
    expect(plain).not.toHaveProperty('reservations');
  });

  it('overrides change a concurrency rule like any other, kept apart in the compiled override', () => {
    const compiled = compiledPolicy({
      rules: [inflight, tokens],
      overrides: [
        {
          id: 'ovr_1',
          identifier: 'vip',
          rules: { inflight: { limit: 50 }, tokens: { capacity: 5 } },
        },
      ],
    });
    expect(compiled?.overrides[0]).toMatchObject({
      rules: { tokens: { algorithm: 'token_bucket', capacity: 5, refillPerSecond: 100 } },
      concurrencyRules: { inflight: { algorithm: 'concurrency', limit: 50, leaseTtlMs: 60_000 } },
    });
    expectIssue(
      tenant({
        policies: [
          policy({
            rules: [inflight],
            overrides: [
              { id: 'ovr_1', identifier: 'vip', rules: { inflight: { leaseTtlMs: 10 } } },
            ],
          }),
        ],
      }),
      'policies[0].overrides[0].rules.inflight.leaseTtlMs',
      /integer from 1000 to 86400000/,
    );
  });

  const withRules = (rules: Record<string, unknown>[], over: Partial<PolicyInput> = {}) =>
    tenant({ policies: [policy({ rules: rules as never, ...over })] });

  it.each([
    [{ limit: 0 }, 'limit', /integer from 1 to 1000000/],
    [{ limit: 1e6 + 1 }, 'limit', /integer from 1 to 1000000/],
    [{ limit: 2.5 }, 'limit', /integer/],
    [{ leaseTtlMs: 999 }, 'leaseTtlMs', /integer from 1000 to 86400000/],
    [{ leaseTtlMs: 86_400_001 }, 'leaseTtlMs', /integer from 1000 to 86400000/],
    [{ leaseTtlMs: undefined }, 'leaseTtlMs', /got undefined/],
    [{ capacity: 5 }, 'capacity', 'unknown parameter for concurrency'],
  ])('refuses a concurrency rule with %j at .%s', (change, field, message) => {
    expectIssue(withRules([{ ...inflight, ...change }]), `policies[0].rules[0].${field}`, message);
  });

  it('refuses a concurrency candidate, and reservations without a rule that counts cost', () => {
    expectIssue(
      withRules([tokens], { candidateRules: [inflight] }),
      'policies[0].candidateRules[0].algorithm',
      'a concurrency rule cannot be a candidate (its lease would outlive a denied request)',
    );
    expectIssue(
      withRules([inflight], { reservations: {} }),
      'policies[0].reservations',
      'reservations need a rule that counts cost (concurrency rules ignore it)',
    );
    expectIssue(
      withRules([inflight, { name: 'inflight', algorithm: 'gcra', limit: 1, periodMs: 1000 }]),
      'policies[0].rules[1].name',
      'duplicate rule name inflight',
    );
  });

  it.each([
    [{ ttlMs: 999 }, 'reservations.ttlMs', 'must be at least 1000 ms'],
    [{ ttlMs: 86_400_001 }, 'reservations.ttlMs', 'must be at most 86400000 ms (24 h)'],
    [{ ttlMs: 1.5 }, 'reservations.ttlMs', 'must be an integer'],
    [{ ttlMs: '10m' }, 'reservations.ttlMs', 'must be a number'],
    [{ ttl: 5 }, 'reservations.ttl', 'unknown field'],
    [true, 'reservations', 'must be { ttlMs? }'],
  ])('refuses reservations %j at %s', (reservations, path, message) => {
    expectIssue(
      withRules([tokens], { reservations: bad(reservations) }),
      `policies[0].${path}`,
      message,
    );
  });
});
