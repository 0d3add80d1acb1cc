import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREATE_PLAN,
  CREATE_PLAN_POLICY,
  dataPlane,
  gql,
  gqlError,
  operator,
  planWithApi,
  published,
  serviceKey,
  slug,
  tenantOn,
} from './support/policies';
import { createUser, loginWithBearer, startTestApp, type TestApp } from './support/test-app';

// A sliding window log keeps an entry per unit of cost: its limit is capped (10,000 units per
// window by default, lower per plan) for tenant policies, templates and overrides. A rule stored
// above the cap keeps working; an edit, import or rollback that leaves it above is refused.

let app: TestApp;
let op: string;
let engine: Awaited<ReturnType<typeof dataPlane>>;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  engine = await dataPlane(app);
});
afterAll(async () => {
  await engine?.stop();
  await app?.close();
});

const log = (limit: number, windowMs = 60_000) => ({
  name: 'log',
  algorithm: 'SLIDING_WINDOW_LOG',
  limit,
  windowMs,
});
const settings = (name: string, rules: unknown[], description = '') => ({
  name,
  description,
  redisTimeoutMs: 1000,
  rules,
});

const CREATE_POLICY = `mutation ($t: ID!, $i: PolicySettingsInput!) {
  createPolicy(tenantId: $t, input: $i) { policy { id } version }
}`;
const UPDATE_POLICY = `mutation ($id: ID!, $i: PolicySettingsInput!) {
  updatePolicy(id: $id, input: $i) { version }
}`;
const UPDATE_PLAN = `mutation ($id: ID!, $i: UpdatePlanInput!) {
  updatePlan(id: $id, input: $i) { slidingLogMaxLimit slidingLogLimitCap }
}`;

async function tenantAdmin(tenantId: string): Promise<string> {
  const admin = await createUser(app.prisma, { memberships: [{ role: 'tenant_admin', tenantId }] });
  return loginWithBearer(app, admin);
}

describe('the sliding-log cap', () => {
  it('refuses a tenant policy above 10,000 units per window, pointing to the sliding counter', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const admin = await tenantAdmin(tenantId);
    const refused = await gqlError(app, admin, CREATE_POLICY, {
      t: tenantId,
      i: settings('big', [
        { name: 'ok', algorithm: 'FIXED_WINDOW', limit: 5, windowMs: 1000 },
        log(10_001),
      ]),
    });
    expect(refused).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.1.limit' });
    expect(refused.message).toMatch(/at most 10000 units per window/);
    expect(refused.message).toMatch(/sliding_window_counter/);
    // candidates too
    const candidate = await gqlError(app, admin, CREATE_POLICY, {
      t: tenantId,
      i: { ...settings('cand', [log(10)]), candidateRules: [{ ...log(20_000), name: 'next' }] },
    });
    expect(candidate).toMatchObject({ field: 'input.candidateRules.0.limit' });
    await gql(app, admin, CREATE_POLICY, { t: tenantId, i: settings('at-cap', [log(10_000)]) });
  });

  it('a plan lowers the cap for its templates and tenants, and cannot raise it', async () => {
    const raise = await gqlError(app, op, CREATE_PLAN, {
      input: { slug: slug('plan'), name: 'Plan', slidingLogMaxLimit: 10_001 },
    });
    expect(raise).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.slidingLogMaxLimit' });
    const { createPlan } = await gql<{ createPlan: { id: string } }>(app, op, CREATE_PLAN, {
      input: { slug: slug('plan'), name: 'Plan', slidingLogMaxLimit: 100 },
    });
    const { plan } = await gql<{
      plan: { slidingLogMaxLimit: number; slidingLogLimitCap: number };
    }>(app, op, `query ($id: ID!) { plan(id: $id) { slidingLogMaxLimit slidingLogLimitCap } }`, {
      id: createPlan.id,
    });
    expect(plan).toEqual({ slidingLogMaxLimit: 100, slidingLogLimitCap: 100 });
    const template = await gqlError(app, op, CREATE_PLAN_POLICY, {
      planId: createPlan.id,
      input: settings('api', [log(101)]),
    });
    expect(template).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.0.limit' });
    expect(template.message).toMatch(/at most 100 units per window/);
    await gql(app, op, CREATE_PLAN_POLICY, {
      planId: createPlan.id,
      input: settings('api', [log(100)]),
    });

    const tenantId = await tenantOn(app, op, createPlan.id);
    const own = await gqlError(app, op, CREATE_POLICY, {
      t: tenantId,
      i: settings('own', [log(101)]),
    });
    expect(own).toMatchObject({ field: 'input.rules.0.limit' });

    const cleared = await gql<{
      updatePlan: { slidingLogMaxLimit: null; slidingLogLimitCap: number };
    }>(app, op, UPDATE_PLAN, { id: createPlan.id, i: { slidingLogMaxLimit: null } });
    expect(cleared.updatePlan).toEqual({ slidingLogMaxLimit: null, slidingLogLimitCap: 10_000 });
    await gql(app, op, CREATE_POLICY, { t: tenantId, i: settings('own', [log(101)]) });
  });

  it('a stored rule above the cap keeps working; only edits, imports and rollbacks leaving it above are refused', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const admin = await tenantAdmin(tenantId);
    const { createPolicy: big } = await gql<{
      createPolicy: { policy: { id: string }; version: number };
    }>(app, admin, CREATE_POLICY, { t: tenantId, i: settings('big', [log(5000)]) });
    const { createPolicy: other } = await gql<{ createPolicy: { policy: { id: string } } }>(
      app,
      admin,
      CREATE_POLICY,
      { t: tenantId, i: settings('other', [log(10)]) },
    );
    // the operator lowers the plan's cap below what `big` holds
    await gql(app, op, UPDATE_PLAN, { id: planId, i: { slidingLogMaxLimit: 1000 } });

    const secret = await serviceKey(app, tenantId);
    expect(await engine.check(secret, 'big', 'u', 1)).toMatchObject({
      reason: 'allowed',
      limit: 5000,
      remaining: 4999,
    });

    // other policies, and `big`'s settings beside the rule, can still change
    await gql(app, admin, UPDATE_POLICY, { id: other.policy.id, i: settings('other', [log(20)]) });
    await gql(app, admin, UPDATE_POLICY, {
      id: big.policy.id,
      i: settings('big', [log(5000)], 'described'),
    });
    // an edit of the rule that leaves it above the cap is refused
    const window = await gqlError(app, admin, UPDATE_POLICY, {
      id: big.policy.id,
      i: settings('big', [log(5000, 120_000)]),
    });
    expect(window).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.0.limit' });
    expect(window.message).toMatch(/at most 1000 units per window/);
    const raised = await gqlError(app, op, UPDATE_POLICY, {
      id: big.policy.id,
      i: settings('big', [log(6000)]),
    });
    expect(raised).toMatchObject({ field: 'input.rules.0.limit' });

    const { updatePolicy: lowered } = await gql<{ updatePolicy: { version: number } }>(
      app,
      admin,
      UPDATE_POLICY,
      { id: big.policy.id, i: settings('big', [log(900)]) },
    );
    await published(app, tenantId, lowered.version);

    // back above the cap by a rollback or an import: refused, naming the document's field
    const rollback = await gqlError(
      app,
      admin,
      `mutation ($t: ID!, $v: Int!) { rollbackPolicies(tenantId: $t, version: $v) { version } }`,
      { t: tenantId, v: big.version },
    );
    expect(rollback).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(rollback.message).toMatch(/at most 1000 units per window/);
    const document = JSON.stringify({
      format: 'sluice.dev/policies/v1',
      policies: [
        {
          name: 'big',
          redisTimeoutMs: 1000,
          rules: [{ name: 'log', algorithm: 'sliding_window_log', limit: 5000, windowMs: 60_000 }],
        },
        {
          name: 'other',
          redisTimeoutMs: 1000,
          rules: [{ name: 'log', algorithm: 'sliding_window_log', limit: 20, windowMs: 60_000 }],
        },
      ],
      changes: [],
      overrides: [],
    });
    const imported = await gqlError(
      app,
      admin,
      `mutation ($i: ImportPoliciesInput!) { importPolicies(input: $i) { version } }`,
      { i: { tenantId, document, format: 'JSON', dryRun: true } },
    );
    expect(imported).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'document.policies.0.rules.0.limit',
    });

    // an override is an edit too
    const override = await gqlError(
      app,
      admin,
      `mutation ($i: CreateOverrideInput!) { createOverride(input: $i) { version } }`,
      { i: { tenantId, policy: 'big', identifier: 'vip', rules: [{ name: 'log', limit: 2000 }] } },
    );
    expect(override).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.0.limit' });
  });
});
