import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AlgorithmInputError,
  checkPrepared,
  checkRule,
  checkRules,
  LocalLimiter,
  prepareRuleSet,
  releaseLease,
  releaseLeaseKeys,
  ruleKey,
  settleReservation,
  type AnyRuleSpec,
  type PreparedRuleSet,
  type RuleCheck,
  type RuleSetSpec,
  type RuleSpec,
} from '../src/index';

/**
 * A connection that is never opened: ioredis connects lazily on the first command, so a status
 * still 'wait' afterwards proves validation threw before any Redis call.
 */
const untouched = new Redis({ lazyConnect: true, port: 1, maxRetriesPerRequest: 0 });
afterAll(() => untouched.disconnect());

const key = 'alg:bad:{api:x}:r';
const bucket: RuleSpec = { algorithm: 'token_bucket', capacity: 10, refillPerSecond: 1 };
const bad = <T>(value: T) => value as never;

const inflight: AnyRuleSpec = { algorithm: 'concurrency', limit: 5, leaseTtlMs: 60_000 };
const LEASE = 'AAAAAAAAAAAAAAAA';

const singleCases: [
  string,
  string,
  AnyRuleSpec,
  { cost?: number; now?: number; lease?: string }?,
][] = [
  ['negative cost', 'cost', bucket, { cost: -1 }],
  ['NaN cost', 'cost', bucket, { cost: NaN }],
  ['fractional cost', 'cost', bucket, { cost: 1.5 }],
  ['huge cost', 'cost', bucket, { cost: 1e9 + 1 }],
  ['infinite cost', 'cost', bucket, { cost: Infinity }],
  ['string cost', 'cost', bucket, { cost: bad('1') }],
  ['NaN now', 'now', bucket, { now: NaN }],
  ['negative now', 'now', bucket, { now: -1 }],
  ['infinite now', 'now', bucket, { now: Infinity }],
  ['zero capacity', 'rule.capacity', { ...bucket, capacity: 0 }],
  ['negative capacity', 'rule.capacity', { ...bucket, capacity: -5 }],
  ['NaN capacity', 'rule.capacity', { ...bucket, capacity: NaN }],
  ['infinite capacity', 'rule.capacity', { ...bucket, capacity: Infinity }],
  ['fractional capacity', 'rule.capacity', { ...bucket, capacity: 2.5 }],
  ['zero refill', 'rule.refillPerSecond', { ...bucket, refillPerSecond: 0 }],
  ['negative refill', 'rule.refillPerSecond', { ...bucket, refillPerSecond: -1 }],
  ['NaN refill', 'rule.refillPerSecond', { ...bucket, refillPerSecond: NaN }],
  ['infinite refill', 'rule.refillPerSecond', { ...bucket, refillPerSecond: Infinity }],
  ['refill over a year', 'rule.refillPerSecond', { ...bucket, capacity: 1e9, refillPerSecond: 1 }],
  ['zero leak', 'rule.leakPerSecond', { algorithm: 'leaky_bucket', capacity: 5, leakPerSecond: 0 }],
  [
    'leak above 1/us',
    'rule.leakPerSecond',
    { algorithm: 'leaky_bucket', capacity: 5, leakPerSecond: 2e6 },
  ],
  ['window under 1 s', 'rule.windowMs', { algorithm: 'fixed_window', limit: 5, windowMs: 999 }],
  [
    'window over 31 days',
    'rule.windowMs',
    { algorithm: 'fixed_window', limit: 5, windowMs: 31 * 86_400_000 + 1 },
  ],
  ['NaN window', 'rule.windowMs', { algorithm: 'sliding_window_log', limit: 5, windowMs: NaN }],
  [
    'infinite window',
    'rule.windowMs',
    { algorithm: 'sliding_window_counter', limit: 5, windowMs: Infinity },
  ],
  ['zero limit', 'rule.limit', { algorithm: 'sliding_window_counter', limit: 0, windowMs: 1000 }],
  [
    'unknown calendar unit',
    'rule.calendar.unit',
    { algorithm: 'fixed_window', limit: 5, calendar: { unit: bad('week'), timeZone: 'UTC' } },
  ],
  [
    'unknown time zone',
    'rule.calendar.timeZone',
    {
      algorithm: 'fixed_window',
      limit: 5,
      calendar: { unit: 'month', timeZone: 'Mars/Olympus_Mons' },
    },
  ],
  [
    'window and calendar',
    'rule',
    bad({
      algorithm: 'fixed_window',
      limit: 5,
      windowMs: 1000,
      calendar: { unit: 'day', timeZone: 'UTC' },
    }),
  ],
  ['zero GCRA period', 'rule.periodMs', { algorithm: 'gcra', limit: 5, periodMs: 0 }],
  ['zero GCRA limit', 'rule.limit', { algorithm: 'gcra', limit: 0, periodMs: 1000 }],
  ['zero GCRA burst', 'rule.burst', { algorithm: 'gcra', limit: 5, periodMs: 1000, burst: 0 }],
  ['GCRA above 1/us', 'rule.limit', { algorithm: 'gcra', limit: 1e9, periodMs: 1000 }],
  ['unknown algorithm', 'rule.algorithm', bad({ algorithm: 'magic', limit: 5 })],
  ['no rule', 'rule', bad(null)],
  ['zero leases', 'rule.limit', { ...inflight, limit: 0 }, { lease: LEASE }],
  ['over a million leases', 'rule.limit', { ...inflight, limit: 1e6 + 1 }, { lease: LEASE }],
  ['a lease under 1 s', 'rule.leaseTtlMs', { ...inflight, leaseTtlMs: 999 }, { lease: LEASE }],
  ['a lease over a day', 'rule.leaseTtlMs', { ...inflight, leaseTtlMs: 86_400_001 }],
  ['a lease taken without its nonce', 'lease', inflight],
  ['a lease nonce that is not one', 'lease', inflight, { lease: 'short' }],
];

function expectInputError(run: () => unknown, field: string): void {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(AlgorithmInputError);
  expect((error as AlgorithmInputError).field).toBe(field);
  expect((error as AlgorithmInputError).message).toMatch(
    new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}: .+`),
  );
}

async function expectRejected(promise: Promise<unknown>, field: string): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expectInputError(() => {
    throw error;
  }, field);
}

describe('bad input throws AlgorithmInputError before any Redis call', () => {
  it('(the probe: any command on such a connection leaves the wait status)', async () => {
    const probe = new Redis({
      lazyConnect: true,
      port: 1,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    await probe.get('x').catch(() => undefined);
    expect(probe.status).not.toBe('wait');
    probe.disconnect();
  });

  for (const [name, field, rule, options] of singleCases) {
    it(`${name} (${field})`, async () => {
      await expectRejected(checkRule(untouched, key, rule, options), field);
      expectInputError(() => new LocalLimiter().check(key, rule, options), field);
      expect(untouched.status).toBe('wait');
    });
  }

  const compositeCases: [string, string, unknown][] = [
    ['no rules', 'rules', []],
    [
      '33 rules',
      'rules',
      Array.from({ length: 33 }, (_, i) => ({ key: `${key}${i}`, rule: bucket })),
    ],
    ['not an array', 'rules', 'token_bucket'],
    [
      'the same key twice',
      'rules[1].key',
      [
        { key, rule: bucket },
        { key, rule: bucket },
      ],
    ],
    ['empty key', 'rules[0].key', [{ key: '', rule: bucket }]],
    ['oversized key', 'rules[0].key', [{ key: 'k'.repeat(513), rule: bucket }]],
    [
      'bad cost in rule 2',
      'rules[1].cost',
      [
        { key, rule: bucket },
        { key: `${key}2`, rule: bucket, cost: -2 },
      ],
    ],
    ['bad rule in rule 1', 'rules[0].rule.capacity', [{ key, rule: { ...bucket, capacity: 0 } }]],
    ['non-boolean candidate', 'rules[0].candidate', [{ key, rule: bucket, candidate: 'yes' }]],
    ['a concurrency candidate', 'rules[0].candidate', [{ key, rule: inflight, candidate: true }]],
  ];
  for (const [name, field, checks] of compositeCases) {
    it(`composite: ${name} (${field})`, async () => {
      await expectRejected(checkRules(untouched, checks as RuleCheck[]), field);
      expectInputError(() => new LocalLimiter().checkRules(checks as RuleCheck[]), field);
      expect(untouched.status).toBe('wait');
    });
  }

  it('composite: keys in different hash slots', async () => {
    const checks = [
      { key: 'alg:{api:a}:r', rule: bucket },
      { key: 'alg:{api:b}:r', rule: bucket },
    ];
    await expectRejected(checkRules(untouched, checks), 'rules');
    expect(untouched.status).toBe('wait');
  });

  it.each([NaN, -1, Infinity, bad('soon')])(
    'composite: deadline %s (deadline)',
    async (deadline) => {
      await expectRejected(
        checkRules(untouched, [{ key, rule: bucket }], { deadline }),
        'deadline',
      );
      expect(untouched.status).toBe('wait');
    },
  );

  const spec: RuleSetSpec = {
    prefix: 'alg:',
    scope: 'tnt.pol',
    rules: [{ name: 'r', rule: bucket }],
  };
  const ruleSetCases: [string, string, unknown][] = [
    ['no spec', 'rules', null],
    ['a bad prefix', 'prefix', { ...spec, prefix: 'a{' }],
    ['a bad scope', 'scope', { ...spec, scope: 'a.b.c' }],
    ['no rules', 'rules', { ...spec, rules: [] }],
    [
      '33 rules',
      'rules',
      { ...spec, rules: Array.from({ length: 33 }, (_, i) => ({ name: `r${i}`, rule: bucket })) },
    ],
    ['a rule that is no object', 'rules[0]', { ...spec, rules: ['r'] }],
    ['a bad rule name', 'rules[0].name', { ...spec, rules: [{ name: 'a:b', rule: bucket }] }],
    [
      'a repeated name',
      'rules[1].name',
      {
        ...spec,
        rules: [
          { name: 'r', rule: bucket },
          { name: 'r', rule: bucket },
        ],
      },
    ],
    [
      'a non-boolean candidate',
      'rules[0].candidate',
      { ...spec, rules: [{ name: 'r', rule: bucket, candidate: 1 }] },
    ],
    [
      'a bad rule parameter',
      'rules[0].rule.capacity',
      { ...spec, rules: [{ name: 'r', rule: { ...bucket, capacity: 0 } }] },
    ],
    [
      'a concurrency candidate',
      'rules[0].candidate',
      { ...spec, rules: [{ name: 'r', rule: inflight, candidate: true }] },
    ],
  ];
  it.each(ruleSetCases)('prepareRuleSet: %s (%s)', (_name, field, input) => {
    expectInputError(() => prepareRuleSet(input as RuleSetSpec), field);
  });

  const prepared = prepareRuleSet({ ...spec, rules: [...spec.rules, { name: 's', rule: bucket }] });
  const requestCases: [string, string, PreparedRuleSet, unknown, unknown][] = [
    ['a set not made by prepareRuleSet', 'rules', { ...prepared }, 'u', 1],
    ['an empty identifier', 'identifier', prepared, '', 1],
    ['a 257-byte identifier', 'identifier', prepared, 'x'.repeat(257), 1],
    ['a bad cost', 'cost', prepared, 'u', -1],
    ['a bad cost of rule 2', 'cost[1]', prepared, 'u', [1, 1.5]],
    ['one cost for two rules', 'cost', prepared, 'u', [1]],
  ];
  it.each(requestCases)('checkPrepared: %s (%s)', async (_name, field, set, identifier, cost) => {
    await expectRejected(checkPrepared(untouched, set, bad(identifier), bad(cost)), field);
    expectInputError(
      () => new LocalLimiter().checkPrepared(set, bad(identifier), bad(cost)),
      field,
    );
    expect(untouched.status).toBe('wait');
  });

  const reservationCases: [string, string, unknown, unknown][] = [
    ['a reservation that is no object', 'reservation', 1, 'yes'],
    ['a record TTL under 1 s', 'reservation.ttlMs', 1, { ttlMs: 999 }],
    ['a record TTL over a day', 'reservation.ttlMs', 1, { ttlMs: 86_400_001 }],
    ['a fractional record TTL', 'reservation.ttlMs', 1, { ttlMs: 1000.5 }],
    ['a bad reservation nonce', 'reservation.nonce', 1, { ttlMs: 1000, nonce: 'x{y}' }],
    ['one cost per rule', 'cost', [1, 1], { ttlMs: 1000 }],
  ];
  it.each(reservationCases)('checkPrepared: %s (%s)', async (_name, field, cost, reservation) => {
    const options = { reservation: bad(reservation) };
    await expectRejected(checkPrepared(untouched, prepared, 'u', bad(cost), options), field);
    expectInputError(
      () => new LocalLimiter().checkPrepared(prepared, 'u', bad(cost), options),
      field,
    );
    expect(untouched.status).toBe('wait');
  });

  it('checkPrepared: a bad lease nonce (lease)', async () => {
    const leased = prepareRuleSet({ ...spec, rules: [{ name: 'l', rule: inflight }] });
    await expectRejected(checkPrepared(untouched, leased, 'u', 1, { lease: 'short' }), 'lease');
    expectInputError(
      () => new LocalLimiter().checkPrepared(leased, 'u', 1, { lease: 'x' }),
      'lease',
    );
    expect(untouched.status).toBe('wait');
  });

  const settleCases: [string, string, PreparedRuleSet, unknown, unknown, unknown][] = [
    ['a set not made by prepareRuleSet', 'rules', { ...prepared }, 'u', LEASE, 1],
    ['an empty identifier', 'identifier', prepared, '', LEASE, 1],
    [
      'an identifier hash that is not one',
      'identifier.idHash',
      prepared,
      { idHash: 'a}' },
      LEASE,
      1,
    ],
    ['a bad nonce', 'nonce', prepared, 'u', 'AAAA', 1],
    ['a negative actual cost', 'actualCost', prepared, 'u', LEASE, -1],
    ['a fractional actual cost', 'actualCost', prepared, 'u', LEASE, 1.5],
    ['no actual cost', 'actualCost', prepared, 'u', LEASE, undefined],
    ['a huge actual cost', 'actualCost', prepared, 'u', LEASE, 1e9 + 1],
  ];
  it.each(settleCases)(
    'settleReservation: %s (%s)',
    async (_name, field, set, identifier, nonce, actual) => {
      await expectRejected(
        settleReservation(untouched, set, bad(identifier), bad(nonce), bad(actual)),
        field,
      );
      expectInputError(
        () => new LocalLimiter().settleReservation(set, bad(identifier), bad(nonce), bad(actual)),
        field,
      );
      expect(untouched.status).toBe('wait');
    },
  );

  it.each([
    ['a bad nonce', 'nonce', 'u', 'AAAA'],
    ['an identifier hash that is not one', 'identifier.idHash', { idHash: '' }, LEASE],
  ])('releaseLease: %s (%s)', async (_name, field, identifier, nonce) => {
    const leased = prepareRuleSet({ ...spec, rules: [{ name: 'l', rule: inflight }] });
    await expectRejected(releaseLease(untouched, leased, bad(identifier), nonce), field);
    expectInputError(() => new LocalLimiter().releaseLease(leased, bad(identifier), nonce), field);
    expect(untouched.status).toBe('wait');
  });

  it('releaseLeaseKeys: keys in different hash slots (keys)', async () => {
    await expectRejected(releaseLeaseKeys(untouched, ['a{x}b', 'a{y}b'], LEASE), 'keys');
    await expectRejected(releaseLeaseKeys(untouched, [''], LEASE), 'keys[0]');
    expect(untouched.status).toBe('wait');
  });

  it('key parts: identifier size and characters of prefix, scope and rule', () => {
    const parts = { prefix: 'sluice:', scope: 'api', identifier: 'user', rule: 'per-minute' };
    expectInputError(() => ruleKey({ ...parts, identifier: '' }), 'identifier');
    expectInputError(() => ruleKey({ ...parts, identifier: 'x'.repeat(257) }), 'identifier');
    expectInputError(() => ruleKey({ ...parts, identifier: 'é'.repeat(129) }), 'identifier');
    expectInputError(() => ruleKey({ ...parts, prefix: 'a{b' }), 'prefix');
    expectInputError(() => ruleKey({ ...parts, scope: 'a}b' }), 'scope');
    expectInputError(() => ruleKey({ ...parts, scope: '' }), 'scope');
    for (const scope of ['a.b.c', '.a', 'a.', 'a..b', 'a:b', `${'t'.repeat(65)}.p`]) {
      expectInputError(() => ruleKey({ ...parts, scope }), 'scope');
    }
    expectInputError(() => ruleKey({ ...parts, rule: 'a:b' }), 'rule');
    expectInputError(() => ruleKey({ ...parts, rule: 'r'.repeat(65) }), 'rule');
  });
});
