import { readApiKey, readTenant } from '@sluice/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataPlane,
  eventually,
  gql,
  gqlError,
  operator,
  planWithApi,
  published,
  serviceKey,
  tenantOn,
} from './support/policies';
import { createUser, loginWithBearer, startTestApp, type TestApp } from './support/test-app';

// The control plane end to end: GraphQL mutations write PostgreSQL, the relay publishes each
// tenant's new version to Redis, and a data plane's decision engine then decides with it.

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

async function admitted(secret: string, policy: string, identifier: string, times: number) {
  const results = [];
  for (let i = 0; i < times; i += 1) results.push(await engine.check(secret, policy, identifier));
  return results.map((result) => result.allowed);
}

const CHANGE = /* GraphQL */ `
  mutation ($input: ChangePlanPolicyInput!) {
    changePlanPolicy(input: $input) {
      version
      policy {
        name
        changed
        rules {
          name
          params {
            name
            value
            source
            changeable
            min
            max
          }
        }
      }
    }
  }
`;

const EFFECTIVE = /* GraphQL */ `
  query ($tenantId: ID!) {
    effectivePolicies(tenantId: $tenantId) {
      name
      source
      changed
      rules {
        name
        params {
          name
          value
          source
        }
      }
      overrides {
        identifier
        match
        reason
      }
    }
  }
`;

describe('publishing', () => {
  it('a new tenant gets its plan’s policies in Redis as version 1, and its keys decide with them', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const tenant = await published(app, tenantId, 1);
    expect(tenant?.version).toBe(1);
    expect(tenant?.policies['api']?.rules.map((r) => r.name)).toEqual(['burst', 'daily']);

    const secret = await serviceKey(app, tenantId);
    expect(await admitted(secret, 'api', 'u1', 6)).toEqual([true, true, true, true, true, false]);
  });

  it('a tenant admin’s change within the plan’s bounds reaches the data plane', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const admin = await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId }],
    });
    const token = await loginWithBearer(app, admin);
    const secret = await serviceKey(app, tenantId);
    expect(await admitted(secret, 'api', 'before', 1)).toEqual([true]);

    const { changePlanPolicy } = await gql<{
      changePlanPolicy: {
        version: number;
        policy: {
          changed: boolean;
          rules: { name: string; params: { name: string; value: number; source: string }[] }[];
        };
      };
    }>(app, token, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 2 }] },
    });
    const answeredAt = Date.now();
    expect(changePlanPolicy.version).toBe(2);
    expect(changePlanPolicy.policy.changed).toBe(true);
    expect(changePlanPolicy.policy.rules[0]?.params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'capacity', value: 2, source: 'TENANT' }),
        expect.objectContaining({ name: 'refillPerSecond', source: 'PLAN' }),
      ]),
    );

    // the goal is 2 s after the mutation's answer; the wait allows eventually's 30 s, since a
    // busy machine may stall for seconds: the delay is printed, not asserted
    await eventually(
      'the data plane feels the new capacity',
      () => engine.check(secret, 'api', `probe-${Math.random()}`),
      (result) => result.limit === 2,
    );
    console.info(`the data plane decided with the change ${Date.now() - answeredAt} ms after it`);
    expect(await admitted(secret, 'api', 'after', 3)).toEqual([true, true, false]);
  });

  it('refuses changes outside the plan’s bounds or of parameters it keeps, naming the field', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const over = await gqlError(app, op, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 51 }] },
    });
    expect(over).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.rules.0.capacity',
      message: "must be at most 50 (the plan's bound)",
    });
    const fixed = await gqlError(app, op, CHANGE, {
      input: {
        tenantId,
        policy: 'api',
        rules: [
          { name: 'burst', capacity: 3 },
          { name: 'daily', limit: 5 },
        ],
      },
    });
    expect(fixed).toMatchObject({
      field: 'input.rules.1.limit',
      message: 'the plan does not let tenants change limit of rule daily',
    });
    const unknown = await gqlError(app, op, CHANGE, {
      input: { tenantId, policy: 'nope', rules: [] },
    });
    expect(unknown).toMatchObject({ field: 'input.policy' });
    // nothing was written: still version 1
    expect((await published(app, tenantId))?.version).toBe(1);
  });

  it('shows where each effective value comes from, overrides included', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    await gql(app, op, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 9 }] },
    });
    await gql(
      app,
      op,
      /* GraphQL */ `
        mutation ($input: CreateOverrideInput!) {
          createOverride(input: $input) {
            version
          }
        }
      `,
      {
        input: {
          tenantId,
          policy: 'api',
          identifier: 'premium_*',
          rules: [{ name: 'burst', capacity: 40 }],
          reason: 'premium customers',
        },
      },
    );
    const { effectivePolicies } = await gql<{
      effectivePolicies: {
        name: string;
        source: string;
        changed: boolean;
        rules: { name: string; params: { name: string; value: number; source: string }[] }[];
        overrides: { identifier: string; match: string; reason: string }[];
      }[];
    }>(app, op, EFFECTIVE, { tenantId });
    expect(effectivePolicies).toEqual([
      {
        name: 'api',
        source: 'PLAN',
        changed: true,
        rules: [
          {
            name: 'burst',
            params: [
              { name: 'capacity', value: 9, source: 'TENANT' },
              { name: 'refillPerSecond', value: 0.001, source: 'PLAN' },
            ],
          },
          {
            name: 'daily',
            params: [
              { name: 'limit', value: 1000, source: 'PLAN' },
              { name: 'windowMs', value: 86_400_000, source: 'PLAN' },
            ],
          },
        ],
        overrides: [{ identifier: 'premium_*', match: 'PREFIX', reason: 'premium customers' }],
      },
    ]);
    const secret = await serviceKey(app, tenantId);
    await published(app, tenantId, 3);
    const premium = await engine.check(secret, 'api', 'premium_42');
    expect(premium).toMatchObject({ limit: 40, overrideId: expect.any(String) });
    expect((await engine.check(secret, 'api', 'regular')).limit).toBe(9);
  });

  it('a suspended tenant’s checks are denied; resuming lifts it', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const secret = await serviceKey(app, tenantId);
    const setStatus = /* GraphQL */ `
      mutation ($id: ID!, $status: TenantStatus!) {
        setTenantStatus(id: $id, status: $status) {
          status
        }
      }
    `;
    await gql(app, op, setStatus, { id: tenantId, status: 'SUSPENDED' });
    await eventually(
      'suspension reaches the data plane',
      () => engine.check(secret, 'api', 's'),
      (result) => result.reason === 'suspended',
    );
    await gql(app, op, setStatus, { id: tenantId, status: 'ACTIVE' });
    await eventually(
      'resumption reaches the data plane',
      () => engine.check(secret, 'api', 's'),
      (result) => result.allowed,
    );
  });
});

describe('every kind of change reaches the data plane', () => {
  /** The check's answer, or the status of the engine's refusal (401, 404, …). */
  async function outcome(secret: string, policy: string): Promise<number | string> {
    try {
      const result = await engine.check(secret, policy, `u-${Math.random()}`);
      return result.allowed ? `limit ${result.limit}` : 'denied';
    } catch (error) {
      return (error as { status?: number }).status ?? String(error);
    }
  }
  const until = (secret: string, policy: string, expected: number | string) =>
    eventually(
      `${policy} answers ${expected}`,
      () => outcome(secret, policy),
      (v) => v === expected,
    );

  it("a tenant's keys and own policies: created, changed, deleted, revoked", async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const { createApiKey } = await gql<{
      createApiKey: { secret: string; apiKey: { id: string } };
    }>(
      app,
      op,
      `mutation ($i: CreateApiKeyInput!) { createApiKey(input: $i) { secret apiKey { id } } }`,
      { i: { tenantId, name: 'service' } },
    );
    const secret = createApiKey.secret;
    await until(secret, 'api', 'limit 5');

    const settings = (limit: number) => ({
      name: 'reports',
      redisTimeoutMs: 1000,
      rules: [{ name: 'hourly', algorithm: 'FIXED_WINDOW', limit, windowMs: 3_600_000 }],
    });
    const { createPolicy } = await gql<{ createPolicy: { policy: { id: string } } }>(
      app,
      op,
      `mutation ($t: ID!, $i: PolicySettingsInput!) { createPolicy(tenantId: $t, input: $i) { policy { id } } }`,
      { t: tenantId, i: settings(2) },
    );
    await until(secret, 'reports', 'limit 2');
    await gql(
      app,
      op,
      `mutation ($id: ID!, $i: PolicySettingsInput!) { updatePolicy(id: $id, input: $i) { version } }`,
      { id: createPolicy.policy.id, i: settings(3) },
    );
    await until(secret, 'reports', 'limit 3');
    await gql(app, op, `mutation ($id: ID!) { deletePolicy(id: $id) { version } }`, {
      id: createPolicy.policy.id,
    });
    await until(secret, 'reports', 404);

    await gql(app, op, `mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`, {
      id: createApiKey.apiKey.id,
    });
    await until(secret, 'api', 401);
  });

  it("a plan's templates: added and removed for every tenant on the plan", async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const secret = await serviceKey(app, tenantId);
    const { createPlanPolicy } = await gql<{ createPlanPolicy: { policy: { id: string } } }>(
      app,
      op,
      `mutation ($p: ID!, $i: PolicySettingsInput!) { createPlanPolicy(planId: $p, input: $i) { policy { id } } }`,
      {
        p: planId,
        i: {
          name: 'exports',
          redisTimeoutMs: 1000,
          rules: [{ name: 'daily', algorithm: 'FIXED_WINDOW', limit: 7, windowMs: 86_400_000 }],
        },
      },
    );
    await until(secret, 'exports', 'limit 7');
    await gql(app, op, `mutation ($id: ID!) { deletePlanPolicy(id: $id) { tenantsRepublished } }`, {
      id: createPlanPolicy.policy.id,
    });
    await until(secret, 'exports', 404);
  });
});

describe('the reconciler', () => {
  it('restores what Redis lost (as after a FLUSHALL) within seconds', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const secret = await serviceKey(app, tenantId);
    await published(app, tenantId, 1);
    await app.resetRedis();
    expect(await readTenant(app.redis.redis, app.redis.prefix, tenantId)).toBeUndefined();

    await published(app, tenantId, 1);
    await eventually(
      'the key is back',
      () => readApiKey(app.redis.redis, app.redis.prefix, secret),
      (record) => record?.tenantId === tenantId,
    );
    expect((await engine.check(secret, 'api', 'after-flush')).allowed).toBe(true);
  });
});

describe('versions', () => {
  const ROLLBACK = /* GraphQL */ `
    mutation ($tenantId: ID!, $version: Int!) {
      rollbackPolicies(tenantId: $tenantId, version: $version) {
        version
        changes {
          path
          kind
        }
      }
    }
  `;
  const VERSIONS = /* GraphQL */ `
    query ($tenantId: ID!) {
      policyVersions(tenantId: $tenantId) {
        totalCount
        nodes {
          version
          reason
          rolledBackFrom
        }
      }
    }
  `;

  it('a rollback publishes the earlier content as a new, higher version', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const secret = await serviceKey(app, tenantId);
    await gql(app, op, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 3 }] },
    });
    await gql(app, op, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 4 }] },
    });
    const { rollbackPolicies } = await gql<{
      rollbackPolicies: { version: number; changes: { path: string; kind: string }[] };
    }>(app, op, ROLLBACK, { tenantId, version: 2 });
    expect(rollbackPolicies).toEqual({
      version: 4,
      changes: [{ path: 'changes.api', kind: 'CHANGED' }],
    });
    const tenant = await published(app, tenantId, 4);
    expect(tenant?.version).toBe(4);
    expect(tenant?.policies['api']?.rules[0]?.rule).toMatchObject({ capacity: 3 });
    expect((await engine.check(secret, 'api', 'rolled-back')).limit).toBe(3);

    const { policyVersions } = await gql<{
      policyVersions: {
        totalCount: number;
        nodes: { version: number; reason: string; rolledBackFrom: number | null }[];
      };
    }>(app, op, VERSIONS, { tenantId });
    expect(policyVersions.totalCount).toBe(4);
    expect(policyVersions.nodes).toEqual([
      { version: 4, reason: 'ROLLBACK', rolledBackFrom: 2 },
      { version: 3, reason: 'PUBLISH', rolledBackFrom: null },
      { version: 2, reason: 'PUBLISH', rolledBackFrom: null },
      { version: 1, reason: 'PUBLISH', rolledBackFrom: null },
    ]);
    // a version that never was
    expect(await gqlError(app, op, ROLLBACK, { tenantId, version: 99 })).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
