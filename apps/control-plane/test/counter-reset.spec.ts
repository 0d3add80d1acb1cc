import type { CheckResult } from '@sluice/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataPlane,
  eventually,
  gql,
  operator,
  planWithApi,
  published,
  serviceKey,
  tenantOn,
} from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';

// A rule's keys carry its state tag (algorithm, and window for the window algorithms): changing
// either through any mutation starts that rule's counters afresh instead of breaking its checks
// (a WRONGTYPE, a nil field) until the old key expires, and the mutation's answer names the rule.

let app: TestApp;
let op: string;
let engine: Awaited<ReturnType<typeof dataPlane>>;

beforeAll(async () => {
  app = await startTestApp({ CONTROL_PLANE_RECONCILE_INTERVAL_MS: '300' });
  op = (await operator(app)).token;
  engine = await dataPlane(app);
});
afterAll(async () => {
  await engine?.stop();
  await app?.close();
});

const HOUR = 3_600_000;
/** Every algorithm with `n` as its limit or capacity, windows of an hour. */
const PARAMS = {
  TOKEN_BUCKET: (n: number) => ({ capacity: n, refillPerSecond: 0.001 }),
  LEAKY_BUCKET: (n: number) => ({ capacity: n, leakPerSecond: 0.001 }),
  FIXED_WINDOW: (n: number) => ({ limit: n, windowMs: HOUR }),
  SLIDING_WINDOW_LOG: (n: number) => ({ limit: n, windowMs: HOUR }),
  SLIDING_WINDOW_COUNTER: (n: number) => ({ limit: n, windowMs: HOUR }),
  GCRA: (n: number) => ({ limit: n, periodMs: HOUR }),
  CONCURRENCY: (n: number) => ({ limit: n, leaseTtlMs: HOUR }),
};
type Algorithm = keyof typeof PARAMS;
const ALGORITHMS = Object.keys(PARAMS) as Algorithm[];

const rule = (algorithm: Algorithm, n: number, name = 'r') => ({
  name,
  algorithm,
  ...PARAMS[algorithm](n),
});

const RESET_FIELDS = 'countersReset { tenantId policy rule candidate override before after }';

interface Reset {
  tenantId: string;
  policy: string;
  rule: string;
  candidate: boolean;
  override: string | null;
  before: string;
  after: string;
}

const CREATE_POLICY = `mutation ($t: ID!, $i: PolicySettingsInput!) {
  createPolicy(tenantId: $t, input: $i) { policy { id } version }
}`;
const UPDATE_POLICY = `mutation ($id: ID!, $i: PolicySettingsInput!) {
  updatePolicy(id: $id, input: $i) { version ${RESET_FIELDS} }
}`;
const IMPORT = `mutation ($i: ImportPoliciesInput!) {
  importPolicies(input: $i) { dryRun version ${RESET_FIELDS} }
}`;
const ROLLBACK = `mutation ($t: ID!, $v: Int!) {
  rollbackPolicies(tenantId: $t, version: $v) { version ${RESET_FIELDS} }
}`;

/** A tenant on a plan with an `api` template, and a published service key of it. */
async function tenantWithKey(planId?: string): Promise<{ tenantId: string; secret: string }> {
  const plan = planId ?? (await planWithApi(app, op)).planId;
  const tenantId = await tenantOn(app, op, plan);
  const secret = await serviceKey(app, tenantId);
  return { tenantId, secret };
}

async function createPolicy(tenantId: string, name: string, rules: unknown[]) {
  const { createPolicy: created } = await gql<{
    createPolicy: { policy: { id: string }; version: number };
  }>(app, op, CREATE_POLICY, { t: tenantId, i: { name, redisTimeoutMs: 1000, rules } });
  return created;
}

/** Waits until the data plane decides `policy` with a rule whose limit is `limit`. */
async function decidesWith(secret: string, policy: string, limit: number): Promise<void> {
  await eventually(
    `${policy} decided with limit ${limit}`,
    () => engine.check(secret, policy, `probe-${Math.random()}`, 0),
    (result) => result.reason === 'allowed' && result.rules[0]?.limit === limit,
  );
}

/** What a check decided, as compared between a changed identifier and a fresh one. */
const outcome = (result: CheckResult) => ({
  reason: result.reason,
  allowed: result.allowed,
  remaining: result.rules[0]?.remaining,
  limit: result.rules[0]?.limit,
});

const stateOf = (algorithm: Algorithm) => algorithm.toLowerCase();

describe('changing a rule’s algorithm or window', () => {
  it(
    'every pair of algorithms through updatePolicy: the next check decides on fresh counters, and the answer names the rule',
    { timeout: 180_000 },
    async () => {
      const { tenantId, secret } = await tenantWithKey();
      const pairs = ALGORITHMS.flatMap((from) =>
        ALGORITHMS.filter((to) => to !== from).map((to) => ({
          from,
          to,
          name: `${stateOf(from)}-to-${stateOf(to)}`.replaceAll('_', '-'),
        })),
      );
      const ids = new Map<string, string>();
      let version = 0;
      for (const pair of pairs) {
        const created = await createPolicy(tenantId, pair.name, [rule(pair.from, 10)]);
        ids.set(pair.name, created.policy.id);
        version = created.version;
      }
      await published(app, tenantId, version);
      const last = pairs.at(-1)!;
      await decidesWith(secret, last.name, 10);
      // state under the old algorithm: 3 units spent (a lease, for concurrency)
      for (const pair of pairs) {
        expect(outcome(await engine.check(secret, pair.name, 'u', 3))).toMatchObject({
          reason: 'allowed',
          allowed: true,
        });
      }

      for (const pair of pairs) {
        const { updatePolicy } = await gql<{
          updatePolicy: { version: number; countersReset: Reset[] };
        }>(app, op, UPDATE_POLICY, {
          id: ids.get(pair.name),
          i: { name: pair.name, redisTimeoutMs: 1000, rules: [rule(pair.to, 11)] },
        });
        expect(updatePolicy.countersReset, pair.name).toEqual([
          expect.objectContaining({
            tenantId,
            policy: pair.name,
            rule: 'r',
            candidate: false,
            override: null,
            before: expect.stringMatching(new RegExp(`^${stateOf(pair.from)}`)),
            after: expect.stringMatching(new RegExp(`^${stateOf(pair.to)}`)),
          }),
        ]);
        version = updatePolicy.version;
      }
      await published(app, tenantId, version);
      await decidesWith(secret, last.name, 11);
      for (const pair of pairs) {
        const changed = outcome(await engine.check(secret, pair.name, 'u', 1));
        const fresh = outcome(await engine.check(secret, pair.name, `fresh-${pair.name}`, 1));
        expect(changed, pair.name).toEqual(fresh);
        expect(changed, pair.name).toMatchObject({ reason: 'allowed', allowed: true, limit: 11 });
      }
    },
  );

  it('other edits keep the counters; a new window length starts them afresh', async () => {
    const { tenantId, secret } = await tenantWithKey();
    const created = await createPolicy(tenantId, 'hourly', [rule('FIXED_WINDOW', 10)]);
    await published(app, tenantId, created.version);
    await decidesWith(secret, 'hourly', 10);
    // fixed windows are aligned on the epoch: note the hour, should one end meanwhile
    const hourBefore = Math.floor(Date.now() / HOUR);
    expect((await engine.check(secret, 'hourly', 'u', 3)).remaining).toBe(7);

    const raised = await gql<{ updatePolicy: { version: number; countersReset: Reset[] } }>(
      app,
      op,
      UPDATE_POLICY,
      {
        id: created.policy.id,
        i: { name: 'hourly', redisTimeoutMs: 1000, rules: [rule('FIXED_WINDOW', 20)] },
      },
    );
    expect(raised.updatePolicy.countersReset).toEqual([]);
    await decidesWith(secret, 'hourly', 20);
    // 3 spent before the change still count (unless an hour ended between the two checks: then
    // the window itself started afresh, which says nothing of the edit)
    const kept = (await engine.check(secret, 'hourly', 'u', 1)).remaining;
    if (Math.floor(Date.now() / HOUR) === hourBefore) expect(kept).toBe(16);
    else expect([16, 19]).toContain(kept);

    const longer = await gql<{ updatePolicy: { version: number; countersReset: Reset[] } }>(
      app,
      op,
      UPDATE_POLICY,
      {
        id: created.policy.id,
        i: {
          name: 'hourly',
          redisTimeoutMs: 1000,
          rules: [{ name: 'r', algorithm: 'FIXED_WINDOW', limit: 21, windowMs: 2 * HOUR }],
        },
      },
    );
    expect(longer.updatePolicy.countersReset).toEqual([
      {
        tenantId,
        policy: 'hourly',
        rule: 'r',
        candidate: false,
        override: null,
        before: `fixed_window per ${HOUR} ms`,
        after: `fixed_window per ${2 * HOUR} ms`,
      },
    ]);
    await decidesWith(secret, 'hourly', 21);
    expect((await engine.check(secret, 'hourly', 'u', 1)).remaining).toBe(20);
  });

  it('updatePlanPolicy: every tenant on the plan is told, and decides on fresh counters', async () => {
    const { planId, policyId } = await planWithApi(app, op);
    const a = await tenantWithKey(planId);
    const b = await tenantWithKey(planId);
    await published(app, a.tenantId, 1);
    await published(app, b.tenantId, 1);
    for (const { secret } of [a, b]) {
      await decidesWith(secret, 'api', 5);
      expect((await engine.check(secret, 'api', 'u', 2)).allowed).toBe(true);
    }
    const { updatePlanPolicy } = await gql<{
      updatePlanPolicy: { tenantsRepublished: number; countersReset: Reset[] };
    }>(
      app,
      op,
      `mutation ($id: ID!, $i: PolicySettingsInput!) {
        updatePlanPolicy(id: $id, input: $i) { tenantsRepublished ${RESET_FIELDS} }
      }`,
      {
        id: policyId,
        i: {
          name: 'api',
          redisTimeoutMs: 1000,
          rules: [
            { ...rule('GCRA', 6, 'burst'), tenantBounds: [{ param: 'limit', min: 1, max: 50 }] },
            {
              name: 'daily',
              algorithm: 'SLIDING_WINDOW_COUNTER',
              limit: 1000,
              windowMs: 86_400_000,
            },
          ],
        },
      },
    );
    expect(updatePlanPolicy.tenantsRepublished).toBe(2);
    const expected = (tenantId: string) => [
      expect.objectContaining({ tenantId, rule: 'burst', before: 'token_bucket', after: 'gcra' }),
      expect.objectContaining({
        tenantId,
        rule: 'daily',
        before: 'fixed_window per 86400000 ms',
        after: 'sliding_window_counter per 86400000 ms',
      }),
    ];
    expect(updatePlanPolicy.countersReset).toEqual(
      expect.arrayContaining([...expected(a.tenantId), ...expected(b.tenantId)]),
    );
    expect(updatePlanPolicy.countersReset).toHaveLength(4);
    for (const { secret } of [a, b]) {
      await decidesWith(secret, 'api', 6);
      const result = await engine.check(secret, 'api', 'u', 1);
      expect(result.reason).toBe('allowed');
      expect(result.rules.map((r) => [r.name, r.remaining])).toEqual([
        ['burst', 5],
        ['daily', 999],
      ]);
    }
  });

  it('importPolicies (dry run first) and rollbackPolicies: the answer names the rules, checks decide afresh', async () => {
    const { tenantId, secret } = await tenantWithKey();
    const created = await createPolicy(tenantId, 'calls', [rule('TOKEN_BUCKET', 10)]);
    await published(app, tenantId, created.version);
    await decidesWith(secret, 'calls', 10);
    expect((await engine.check(secret, 'calls', 'u', 4)).remaining).toBe(6);

    const document = JSON.stringify({
      format: 'sluice.dev/policies/v1',
      policies: [
        {
          name: 'calls',
          redisTimeoutMs: 1000,
          rules: [{ name: 'r', algorithm: 'gcra', limit: 11, periodMs: HOUR }],
        },
      ],
      changes: [],
      overrides: [],
    });
    const reset = {
      tenantId,
      policy: 'calls',
      rule: 'r',
      candidate: false,
      override: null,
      before: 'token_bucket',
      after: 'gcra',
    };
    const dry = await gql<{
      importPolicies: { dryRun: boolean; version: number | null; countersReset: Reset[] };
    }>(app, op, IMPORT, { i: { tenantId, document, format: 'JSON', dryRun: true } });
    expect(dry.importPolicies).toEqual({ dryRun: true, version: null, countersReset: [reset] });
    const real = await gql<{ importPolicies: { version: number; countersReset: Reset[] } }>(
      app,
      op,
      IMPORT,
      { i: { tenantId, document, format: 'JSON' } },
    );
    expect(real.importPolicies.countersReset).toEqual([reset]);
    await decidesWith(secret, 'calls', 11);
    const afterImport = await engine.check(secret, 'calls', 'u', 1);
    expect(afterImport).toMatchObject({ reason: 'allowed', remaining: 10 });

    const { rollbackPolicies } = await gql<{
      rollbackPolicies: { version: number; countersReset: Reset[] };
    }>(app, op, ROLLBACK, { t: tenantId, v: created.version });
    expect(rollbackPolicies.countersReset).toEqual([
      { ...reset, before: 'gcra', after: 'token_bucket' },
    ]);
    await decidesWith(secret, 'calls', 10);
    // back on the token bucket's keys, which still hold what it left (6): a state the rule had
    // before is picked up again while its keys live
    expect(await engine.check(secret, 'calls', 'u', 1)).toMatchObject({
      reason: 'allowed',
      remaining: 5,
    });
  });

  it('an override with its own window: its identifiers’ counters restart, the others’ stay', async () => {
    const { tenantId, secret } = await tenantWithKey();
    const created = await createPolicy(tenantId, 'window', [rule('SLIDING_WINDOW_COUNTER', 10)]);
    await published(app, tenantId, created.version);
    await decidesWith(secret, 'window', 10);
    await engine.check(secret, 'window', 'vip-1', 3);
    await engine.check(secret, 'window', 'other', 3);

    const { createOverride } = await gql<{
      createOverride: { version: number; countersReset: Reset[] };
    }>(
      app,
      op,
      `mutation ($i: CreateOverrideInput!) { createOverride(input: $i) { version ${RESET_FIELDS} } }`,
      {
        i: {
          tenantId,
          policy: 'window',
          identifier: 'vip-*',
          rules: [{ name: 'r', limit: 12, windowMs: 2 * HOUR }],
          reason: 'longer window',
        },
      },
    );
    expect(createOverride.countersReset).toEqual([
      {
        tenantId,
        policy: 'window',
        rule: 'r',
        candidate: false,
        override: 'vip-*',
        before: `sliding_window_counter per ${HOUR} ms`,
        after: `sliding_window_counter per ${2 * HOUR} ms`,
      },
    ]);
    await published(app, tenantId, createOverride.version);
    await eventually(
      'the override applies',
      () => engine.check(secret, 'window', `vip-probe-${Math.random()}`, 0),
      (result) => result.rules[0]?.limit === 12,
    );
    expect(await engine.check(secret, 'window', 'vip-1', 1)).toMatchObject({
      reason: 'allowed',
      remaining: 11,
    });
    expect((await engine.check(secret, 'window', 'other', 1)).remaining).toBe(6);
  });
});
