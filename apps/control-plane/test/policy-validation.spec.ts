import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator, planWithApi, published, tenantOn } from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';

// Every validation rule of policies, rules and overrides answers BAD_USER_INPUT naming the field,
// and writes nothing.

let app: TestApp;
let op: string;
let tenantId: string;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  const { planId } = await planWithApi(app, op);
  tenantId = await tenantOn(app, op, planId);
});
afterAll(async () => {
  await app?.close();
});

const CREATE_POLICY = /* GraphQL */ `
  mutation ($tenantId: ID!, $input: PolicySettingsInput!) {
    createPolicy(tenantId: $tenantId, input: $input) {
      version
      policy {
        id
        name
      }
    }
  }
`;

const bucket = { name: 'b', algorithm: 'TOKEN_BUCKET', capacity: 10, refillPerSecond: 1 };
const policy = (over: Record<string, unknown>) => ({ name: 'reports', rules: [bucket], ...over });

describe('policy and rule validation', () => {
  it.each([
    [
      'a capacity of 0',
      policy({ rules: [{ ...bucket, capacity: 0 }] }),
      'input.rules.0.capacity',
      /must be an integer from 1 to/,
    ],
    [
      'a negative rate',
      policy({ rules: [{ ...bucket, refillPerSecond: -1 }] }),
      'input.rules.0.refillPerSecond',
      /must be a finite number above 0/,
    ],
    [
      'a window under 1 s',
      policy({ rules: [{ name: 'w', algorithm: 'FIXED_WINDOW', limit: 5, windowMs: 999 }] }),
      'input.rules.0.windowMs',
      /1000/,
    ],
    [
      'a window over 31 days',
      policy({
        rules: [
          { name: 'w', algorithm: 'SLIDING_WINDOW_LOG', limit: 5, windowMs: 32 * 86_400_000 },
        ],
      }),
      'input.rules.0.windowMs',
      /2678400000/,
    ],
    [
      'a capacity above 1e9',
      policy({ rules: [{ ...bucket, capacity: 2_000_000_000 }] }),
      'input.rules.0.capacity',
      /1000000000/,
    ],
    [
      'a parameter of another algorithm',
      policy({ rules: [{ ...bucket, windowMs: 1000 }] }),
      'input.rules.0.windowMs',
      /unknown parameter for token_bucket/,
    ],
    [
      'a missing parameter',
      policy({ rules: [{ name: 'g', algorithm: 'GCRA', limit: 5 }] }),
      'input.rules.0.periodMs',
      /.+/,
    ],
    [
      'two rules of one name',
      policy({ rules: [bucket, { ...bucket, capacity: 3 }] }),
      'input.rules.1.name',
      /duplicate rule name b/,
    ],
    ['no rule at all', policy({ rules: [] }), 'input.rules', /at least one rule/],
    [
      'a concurrency candidate',
      policy({
        candidateRules: [{ name: 'c', algorithm: 'CONCURRENCY', limit: 2, leaseTtlMs: 1000 }],
      }),
      'input.candidateRules.0.algorithm',
      /cannot be a candidate/,
    ],
    [
      'reservations without a rate rule',
      policy({
        rules: [{ name: 'c', algorithm: 'CONCURRENCY', limit: 2, leaseTtlMs: 1000 }],
        reservationTtlMs: 60_000,
      }),
      'input.reservationTtlMs',
      /counts cost/,
    ],
    [
      'a reservation TTL under 1 s',
      policy({ reservationTtlMs: 10 }),
      'input.reservationTtlMs',
      /at least 1000/,
    ],
    ['a Redis timeout over 1 s', policy({ redisTimeoutMs: 5000 }), 'input.redisTimeoutMs', /1000/],
    ['a bad name', policy({ name: 'Has Space' }), 'input.name', /.+/],
  ])('refuses %s', async (_what, input, field, message) => {
    const error = await gqlError(app, op, CREATE_POLICY, { tenantId, input });
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('refuses a name that its plan uses, and a second policy of one name', async () => {
    expect(
      await gqlError(app, op, CREATE_POLICY, { tenantId, input: policy({ name: 'api' }) }),
    ).toMatchObject({ code: 'CONFLICT', field: 'input.name' });
    await gql(app, op, CREATE_POLICY, { tenantId, input: policy({ name: 'once' }) });
    expect(
      await gqlError(app, op, CREATE_POLICY, { tenantId, input: policy({ name: 'once' }) }),
    ).toMatchObject({ code: 'CONFLICT', field: 'input.name' });
  });

  it('wrote nothing for any refusal: only the valid policy made a version', async () => {
    const versions = await app.prisma.policyVersion.count({ where: { tenantId } });
    // version 1 at creation, version 2 for "once"
    expect(versions).toBe(2);
    expect((await published(app, tenantId, 2))?.version).toBe(2);
  });
});

describe('override validation', () => {
  const CREATE_OVERRIDE = /* GraphQL */ `
    mutation ($input: CreateOverrideInput!) {
      createOverride(input: $input) {
        override {
          id
          identifier
          match
        }
      }
    }
  `;
  // tenantId is known only once beforeAll ran: the table holds the differences
  const override = (over: Record<string, unknown>) => over;
  const input = (over: Record<string, unknown>) => ({
    tenantId,
    policy: 'api',
    identifier: 'user-1',
    rules: [{ name: 'burst', capacity: 100 }],
    ...over,
  });

  it.each([
    ['an unknown policy', override({ policy: 'nope' }), 'input.policy', /no policy named nope/],
    [
      'an unknown rule',
      override({ rules: [{ name: 'nope', capacity: 1 }] }),
      'input.rules.0',
      /no rule named nope/,
    ],
    [
      'an invalid value',
      override({ rules: [{ name: 'burst', capacity: 0 }] }),
      'input.rules.0.capacity',
      /.+/,
    ],
    [
      'a parameter of another algorithm',
      override({ rules: [{ name: 'burst', limit: 3 }] }),
      'input.rules.0.limit',
      /unknown parameter/,
    ],
    ['no parameter', override({ rules: [{ name: 'burst' }] }), 'input.rules.0', /at least one/],
    [
      'an expiry in the past',
      override({ expiresAt: '2020-01-01T00:00:00Z' }),
      'input.expiresAt',
      /future/,
    ],
    ['a wildcard inside', override({ identifier: 'a*b*' }), 'input.identifier', /only end with \*/],
    [
      'an identifier over 256 bytes',
      override({ identifier: 'é'.repeat(129) }),
      'input.identifier',
      /256/,
    ],
  ])('refuses %s', async (_what, over, field, message) => {
    const error = await gqlError(app, op, CREATE_OVERRIDE, { input: input(over) });
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('takes an exact and a prefix override, and refuses a second one for the same target', async () => {
    const exact = await gql<{ createOverride: { override: { match: string } } }>(
      app,
      op,
      CREATE_OVERRIDE,
      { input: input({ identifier: 'vip' }) },
    );
    expect(exact.createOverride.override.match).toBe('EXACT');
    const prefix = await gql<{
      createOverride: { override: { match: string; identifier: string } };
    }>(app, op, CREATE_OVERRIDE, { input: input({ identifier: 'vip*' }) });
    expect(prefix.createOverride.override).toMatchObject({ match: 'PREFIX', identifier: 'vip*' });
    expect(
      await gqlError(app, op, CREATE_OVERRIDE, { input: input({ identifier: 'vip' }) }),
    ).toMatchObject({ code: 'CONFLICT', field: 'input.identifier' });
  });
});
