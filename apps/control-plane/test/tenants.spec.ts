import { readApiKey, readTenant } from '@sluice/policy';
import { OwnRedisServer } from '@sluice/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyRow,
  eventually,
  gql,
  gqlError,
  operator,
  planWithApi,
  published,
  tenantOn,
} from './support/policies';
import { createUser, loginWithBearer, startTestApp, type TestApp } from './support/test-app';

let app: TestApp;
let op: string;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
});
afterAll(async () => {
  await app?.close();
});

const CHANGE = /* GraphQL */ `
  mutation ($input: ChangePlanPolicyInput!) {
    changePlanPolicy(input: $input) {
      version
    }
  }
`;
const EXPORT = /* GraphQL */ `
  query ($tenantId: ID!, $format: DocumentFormat, $version: Int) {
    exportPolicies(tenantId: $tenantId, format: $format, version: $version)
  }
`;
const IMPORT = /* GraphQL */ `
  mutation ($input: ImportPoliciesInput!) {
    importPolicies(input: $input) {
      dryRun
      version
      changes {
        path
        kind
        before
        after
      }
    }
  }
`;

async function adminOf(tenantId: string, role: 'tenant_admin' | 'tenant_viewer' = 'tenant_admin') {
  const user = await createUser(app.prisma, { memberships: [{ role, tenantId }] });
  return loginWithBearer(app, user);
}

describe('deleting a tenant', () => {
  it('removes its policies, keys and counters from Redis and its rows, and keeps its audit log', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const { secret } = await apiKeyRow(app, tenantId);
    await gql(app, op, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 7 }] },
    });
    await eventually(
      'key published',
      () => readApiKey(app.redis.redis, app.redis.prefix, secret),
      (record) => record !== undefined,
    );
    // a counter and a usage key, as the data plane writes them
    const counter = `${app.redis.prefix}rl:{${tenantId}.pol_x:abc}:burst`;
    const usage = `${app.redis.prefix}usage:{${tenantId}}:api:1800000000`;
    await app.redis.redis.set(counter, '1');
    await app.redis.redis.hset(usage, 'allowed', '3');

    await gql(app, op, `mutation ($id: ID!) { deleteTenant(id: $id) }`, { id: tenantId });
    // gone from the API at once
    expect(
      await gqlError(app, op, `query ($id: ID!) { tenant(id: $id) { id } }`, { id: tenantId }),
    ).toMatchObject({ code: 'NOT_FOUND' });
    // and from Redis and PostgreSQL in the background
    await eventually(
      'tenant row removed',
      () => app.prisma.tenant.findUnique({ where: { id: tenantId } }),
      (row) => row === null,
    );
    expect(await readTenant(app.redis.redis, app.redis.prefix, tenantId)).toBeUndefined();
    expect(await readApiKey(app.redis.redis, app.redis.prefix, secret)).toBeUndefined();
    expect(await app.redis.redis.exists(counter, usage)).toBe(0);
    expect(await app.prisma.apiKey.count({ where: { tenantId } })).toBe(0);
    const actions = (
      await app.prisma.auditLog.findMany({ where: { tenantId }, orderBy: { id: 'asc' } })
    ).map((entry) => entry.action);
    expect(actions).toEqual(['tenant.create', 'policy_change.put', 'tenant.delete']);
  });
});

describe('plans and tenants', () => {
  const UPDATE_TEMPLATE = /* GraphQL */ `
    mutation ($id: ID!, $input: PolicySettingsInput!) {
      updatePlanPolicy(id: $id, input: $input) {
        tenantsRepublished
        tenantsTrimmed
      }
    }
  `;

  it('a template change reaches every tenant on the plan, trimming changes outside new bounds', async () => {
    const { planId, policyId } = await planWithApi(app, op);
    const a = await tenantOn(app, op, planId);
    const b = await tenantOn(app, op, planId);
    await gql(app, op, CHANGE, {
      input: { tenantId: a, policy: 'api', rules: [{ name: 'burst', capacity: 40 }] },
    });
    const result = await gql<{
      updatePlanPolicy: { tenantsRepublished: number; tenantsTrimmed: number };
    }>(app, op, UPDATE_TEMPLATE, {
      id: policyId,
      input: {
        name: 'api',
        redisTimeoutMs: 1000,
        rules: [
          {
            name: 'burst',
            algorithm: 'TOKEN_BUCKET',
            capacity: 8,
            refillPerSecond: 0.001,
            tenantBounds: [{ param: 'capacity', max: 20 }],
          },
        ],
      },
    });
    expect(result.updatePlanPolicy).toEqual({ tenantsRepublished: 2, tenantsTrimmed: 1 });
    // a's capacity 40 no longer fits (max 20): back to the template's 8, like b
    for (const tenantId of [a, b]) {
      const tenant = await published(app, tenantId, tenantId === a ? 3 : 2);
      expect(tenant?.policies['api']?.rules).toEqual([
        { name: 'burst', rule: { algorithm: 'token_bucket', capacity: 8, refillPerSecond: 0.001 } },
      ]);
    }
    expect(
      await app.prisma.auditLog.findFirst({ where: { tenantId: a, action: 'policy_change.trim' } }),
    ).toMatchObject({
      before: { rules: { burst: { capacity: 40 } }, candidateRules: [] },
      after: { rules: {}, candidateRules: [] },
    });
  });

  it('moving a tenant to another plan carries its changes to the same-named template', async () => {
    const from = await planWithApi(app, op);
    const to = await planWithApi(app, op, 3);
    const tenantId = await tenantOn(app, op, from.planId);
    await gql(app, op, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 11 }] },
    });
    await gql(
      app,
      op,
      `mutation ($id: ID!, $input: UpdateTenantInput!) { updateTenant(id: $id, input: $input) { planId } }`,
      { id: tenantId, input: { planId: to.planId } },
    );
    const tenant = await published(app, tenantId, 3);
    expect(tenant?.policies['api']).toMatchObject({
      id: to.policyId,
      rules: [{ name: 'burst', rule: { capacity: 11 } }, { name: 'daily' }],
    });
    // tenant admins rename their tenant but do not move it
    const admin = await adminOf(tenantId);
    expect(
      await gqlError(
        app,
        admin,
        `mutation ($id: ID!, $input: UpdateTenantInput!) { updateTenant(id: $id, input: $input) { id } }`,
        { id: tenantId, input: { planId: from.planId } },
      ),
    ).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses deleting a plan that tenants are on', async () => {
    const { planId } = await planWithApi(app, op);
    await tenantOn(app, op, planId);
    expect(
      await gqlError(app, op, `mutation ($id: ID!) { deletePlan(id: $id) }`, { id: planId }),
    ).toMatchObject({ code: 'CONFLICT' });
  });
});

describe('tenant isolation', () => {
  it("tenant B's admin can neither read nor change tenant A's policies, overrides or versions", async () => {
    const { planId } = await planWithApi(app, op);
    const a = await tenantOn(app, op, planId);
    const b = await tenantOn(app, op, planId);
    const bAdmin = await adminOf(b);
    const calls: [string, Record<string, unknown>][] = [
      [`query ($t: ID!) { tenant(id: $t) { id } }`, { t: a }],
      [`query ($t: ID!) { effectivePolicies(tenantId: $t) { name } }`, { t: a }],
      [`query ($t: ID!) { tenantPolicies(tenantId: $t) { name } }`, { t: a }],
      [`query ($t: ID!) { overrides(tenantId: $t) { totalCount } }`, { t: a }],
      [`query ($t: ID!) { policyVersions(tenantId: $t) { totalCount } }`, { t: a }],
      [`query ($t: ID!) { exportPolicies(tenantId: $t) }`, { t: a }],
      [CHANGE, { t: a }],
    ];
    for (const [query, variables] of calls) {
      const vars =
        query === CHANGE
          ? { input: { tenantId: a, policy: 'api', rules: [{ name: 'burst', capacity: 2 }] } }
          : variables;
      expect(await gqlError(app, bAdmin, query, vars), query).toMatchObject({ code: 'NOT_FOUND' });
    }
    const { tenants } = await gql<{ tenants: { nodes: { id: string }[] } }>(
      app,
      bAdmin,
      `{ tenants { nodes { id } } }`,
    );
    expect(tenants.nodes).toEqual([{ id: b }]);
    // A is untouched
    expect(await app.prisma.policyVersion.count({ where: { tenantId: a } })).toBe(1);
  });

  it('a viewer reads its tenant but changes nothing', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const viewer = await adminOf(tenantId, 'tenant_viewer');
    const { effectivePolicies } = await gql<{ effectivePolicies: { name: string }[] }>(
      app,
      viewer,
      `query ($t: ID!) { effectivePolicies(tenantId: $t) { name } }`,
      { t: tenantId },
    );
    expect(effectivePolicies).toEqual([{ name: 'api' }]);
    expect(
      await gqlError(app, viewer, CHANGE, {
        input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 2 }] },
      }),
    ).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('export and import', () => {
  it('round-trips: an exported document imports as no change, and a changed one as its diff', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    await gql(app, op, CHANGE, {
      input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 6 }] },
    });
    await gql(
      app,
      op,
      `mutation ($t: ID!, $i: PolicySettingsInput!) { createPolicy(tenantId: $t, input: $i) { version } }`,
      {
        t: tenantId,
        i: {
          name: 'reports',
          rules: [
            { name: 'hourly', algorithm: 'SLIDING_WINDOW_COUNTER', limit: 60, windowMs: 3_600_000 },
          ],
        },
      },
    );
    const { exportPolicies: yaml } = await gql<{ exportPolicies: string }>(app, op, EXPORT, {
      tenantId,
    });
    expect(yaml).toContain('format: sluice.dev/policies/v1');
    expect(yaml).toContain('name: reports');

    const same = await gql<{ importPolicies: { changes: unknown[]; version: number | null } }>(
      app,
      op,
      IMPORT,
      { input: { tenantId, document: yaml, dryRun: true } },
    );
    expect(same.importPolicies).toEqual({ dryRun: true, changes: [], version: null });

    const edited = yaml.replace('limit: 60', 'limit: 90');
    const dry = await gql<{ importPolicies: { changes: { path: string; kind: string }[] } }>(
      app,
      op,
      IMPORT,
      { input: { tenantId, document: edited, dryRun: true } },
    );
    expect(dry.importPolicies.changes).toEqual([
      expect.objectContaining({ path: 'policies.reports', kind: 'CHANGED' }),
    ]);
    expect(await app.prisma.policyVersion.count({ where: { tenantId } })).toBe(3);

    const applied = await gql<{ importPolicies: { version: number } }>(app, op, IMPORT, {
      input: { tenantId, document: edited },
    });
    expect(applied.importPolicies.version).toBe(4);
    const tenant = await published(app, tenantId, 4);
    expect(tenant?.policies['reports']?.rules[0]?.rule).toMatchObject({ limit: 90 });
    // the policy kept its id, so its counters carry on
    const before = await readTenantPolicyId(tenantId, 'reports');
    expect(tenant?.policies['reports']?.id).toBe(before);

    // JSON of the imported state equals the document, and re-imports as no change
    const { exportPolicies: json } = await gql<{ exportPolicies: string }>(app, op, EXPORT, {
      tenantId,
      format: 'JSON',
    });
    const again = await gql<{ importPolicies: { changes: unknown[] } }>(app, op, IMPORT, {
      input: { tenantId, document: json, format: 'JSON', dryRun: true },
    });
    expect(again.importPolicies.changes).toEqual([]);
    // an earlier version's document is still there
    const { exportPolicies: v2 } = await gql<{ exportPolicies: string }>(app, op, EXPORT, {
      tenantId,
      version: 2,
    });
    expect(v2).not.toContain('reports');
  });

  it('names the field of a bad document, and changes nothing', async () => {
    const { planId } = await planWithApi(app, op);
    const tenantId = await tenantOn(app, op, planId);
    const cases: [string, string, RegExp][] = [
      ['format: nope\n', 'document.format', /sluice.dev\/policies\/v1/],
      ['format: [unclosed\n', 'document', /not valid YAML at line/],
      [
        'format: sluice.dev/policies/v1\npolicies:\n  - name: x\n    rules:\n      - { name: r, algorithm: token_bucket, capacity: 0, refillPerSecond: 1 }\n',
        'document.policies.0.rules.0.capacity',
        /integer from 1/,
      ],
      [
        'format: sluice.dev/policies/v1\nchanges:\n  - { policy: api, rules: { burst: { capacity: 500 } } }\n',
        'document.changes.0.rules.burst.capacity',
        /at most 50/,
      ],
      [
        'format: sluice.dev/policies/v1\noverrides:\n  - { policy: nope, identifier: a, rules: { burst: { capacity: 2 } } }\n',
        'document.overrides.0.policy',
        /no policy named nope/,
      ],
      ['format: sluice.dev/policies/v1\nsurprise: 1\n', 'document', /unknown field surprise/],
    ];
    for (const [document, field, message] of cases) {
      const error = await gqlError(app, op, IMPORT, { input: { tenantId, document } });
      expect(error, document).toMatchObject({ code: 'BAD_USER_INPUT', field });
      expect(error.message, document).toMatch(message);
    }
    expect(await app.prisma.policyVersion.count({ where: { tenantId } })).toBe(1);
  });
});

async function readTenantPolicyId(tenantId: string, name: string): Promise<string | undefined> {
  const row = await app.prisma.policy.findFirst({ where: { tenantId, name } });
  return row?.id;
}

describe('publishing while Redis is down', () => {
  it('keeps the change in the outbox and publishes it once Redis is back', async () => {
    const redisServer = await OwnRedisServer.create();
    const own = await startTestApp({
      REDIS_URL: redisServer.url,
      CONTROL_PLANE_RELAY_INTERVAL_MS: '100',
    });
    const reader = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
    try {
      const token = (await operator(own)).token;
      const { planId } = await planWithApi(own, token);
      const tenantId = await tenantOn(own, token, planId);
      await eventually(
        'first publish',
        () => readTenant(reader, own.redis.prefix, tenantId),
        (tenant) => tenant?.version === 1,
      );

      await redisServer.stop();
      await gql(own, token, CHANGE, {
        input: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 4 }] },
      });
      const waiting = await eventually(
        'a failed attempt recorded',
        () => own.prisma.outboxEvent.findFirst({ where: { tenantId, processedAt: null } }),
        (event) => (event?.attempts ?? 0) > 0,
      );
      expect(waiting?.lastError).toBeTruthy();

      await redisServer.start();
      // the relay's next attempt may be a whole backoff away (at most 30 s, more attempts having
      // failed while a slow machine restarted Redis): room for that and then some
      const tenant = await eventually(
        'published after Redis came back',
        () => readTenant(reader, own.redis.prefix, tenantId).catch(() => undefined),
        (found) => found?.version === 2,
        60_000,
      );
      expect(tenant?.policies['api']?.rules[0]?.rule).toMatchObject({ capacity: 4 });
    } finally {
      reader.disconnect();
      await own.close();
      await redisServer.destroy();
    }
  }, 150_000);
});
