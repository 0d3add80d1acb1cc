import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator, planWithApi, tenantOn } from './support/policies';
import { createUser, loginWithBearer, startTestApp, type TestApp } from './support/test-app';

// A tenant's override of one of its plan's policies stays within the plan's bounds, as its own
// change of the template must (the `api` template lets tenants set burst's capacity 1..50 and
// nothing else): per-plan quotas stay quotas. Operators may go beyond. Import and rollback check
// the same for tenant admins.

let app: TestApp;
let op: string;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
});
afterAll(async () => {
  await app?.close();
});

const CREATE = `mutation ($i: CreateOverrideInput!) {
  createOverride(input: $i) { override { id } version }
}`;
const UPDATE = `mutation ($id: ID!, $i: UpdateOverrideInput!) {
  updateOverride(id: $id, input: $i) { override { id reason } version }
}`;
const IMPORT = `mutation ($i: ImportPoliciesInput!) { importPolicies(input: $i) { version } }`;
const EXPORT = `query ($t: ID!) { exportPolicies(tenantId: $t, format: JSON) }`;
const ROLLBACK = `mutation ($t: ID!, $v: Int!) { rollbackPolicies(tenantId: $t, version: $v) { version } }`;

async function member(tenantId: string, role: 'tenant_admin' | 'tenant_viewer') {
  const user = await createUser(app.prisma, { memberships: [{ role, tenantId }] });
  return loginWithBearer(app, user);
}

async function setup() {
  const { planId } = await planWithApi(app, op);
  const tenantId = await tenantOn(app, op, planId);
  return {
    tenantId,
    admin: await member(tenantId, 'tenant_admin'),
    viewer: await member(tenantId, 'tenant_viewer'),
  };
}

const override = (tenantId: string, identifier: string, rules: unknown[]) => ({
  i: { tenantId, policy: 'api', identifier, rules, reason: 'test' },
});

describe('overrides of plan policies', () => {
  it('a tenant admin stays within the plan’s bounds; an operator may go beyond; a viewer may not write', async () => {
    const { tenantId, admin, viewer } = await setup();
    const huge = await gqlError(
      app,
      admin,
      CREATE,
      override(tenantId, 'a*', [{ name: 'burst', capacity: 1000 }]),
    );
    expect(huge).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.0.capacity' });
    expect(huge.message).toMatch(/at most 50 \(the plan's bound\)/);
    const closed = await gqlError(
      app,
      admin,
      CREATE,
      override(tenantId, 'a*', [
        { name: 'burst', capacity: 10 },
        { name: 'daily', limit: 5000 },
      ]),
    );
    expect(closed).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.1.limit' });
    expect(closed.message).toMatch(/does not let tenants change limit of rule daily/);
    await gql(app, admin, CREATE, override(tenantId, 'a*', [{ name: 'burst', capacity: 50 }]));

    await gql(app, op, CREATE, override(tenantId, 'b*', [{ name: 'burst', capacity: 1000 }]));
    await gql(app, op, CREATE, override(tenantId, 'c*', [{ name: 'daily', limit: 1e6 }]));

    const denied = await gqlError(
      app,
      viewer,
      CREATE,
      override(tenantId, 'd*', [{ name: 'burst', capacity: 2 }]),
    );
    expect(denied.code).toBe('FORBIDDEN');

    const { overrides } = await gql<{ overrides: { nodes: { identifier: string }[] } }>(
      app,
      op,
      `query ($t: ID!) { overrides(tenantId: $t) { nodes { identifier } } }`,
      { t: tenantId },
    );
    expect(overrides.nodes.map((o) => o.identifier).sort()).toEqual(['a*', 'b*', 'c*']);
  });

  it('a tenant admin may reword an operator’s override beyond the bounds, not raise it further', async () => {
    const { tenantId, admin } = await setup();
    const { createOverride } = await gql<{ createOverride: { override: { id: string } } }>(
      app,
      op,
      CREATE,
      override(tenantId, 'vip', [{ name: 'burst', capacity: 1000 }]),
    );
    const id = createOverride.override.id;
    const raised = await gqlError(app, admin, UPDATE, {
      id,
      i: { rules: [{ name: 'burst', capacity: 2000 }] },
    });
    expect(raised).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.0.capacity' });
    const reworded = await gql<{ updateOverride: { override: { reason: string } } }>(
      app,
      admin,
      UPDATE,
      { id, i: { reason: 'a key customer' } },
    );
    expect(reworded.updateOverride.override.reason).toBe('a key customer');
    await gql(app, admin, UPDATE, { id, i: { rules: [{ name: 'burst', capacity: 30 }] } });
    await gql(app, op, UPDATE, { id, i: { rules: [{ name: 'burst', capacity: 3000 }] } });
  });

  it('import and rollback: a tenant admin cannot bring in an override beyond the bounds; one kept as it was passes', async () => {
    const { tenantId, admin } = await setup();
    const { createOverride } = await gql<{
      createOverride: { override: { id: string }; version: number };
    }>(app, op, CREATE, override(tenantId, 'vip', [{ name: 'burst', capacity: 1000 }]));

    // the operator's override, exported and imported again unchanged: no new override
    const { exportPolicies } = await gql<{ exportPolicies: string }>(app, admin, EXPORT, {
      t: tenantId,
    });
    await gql(app, admin, IMPORT, { i: { tenantId, document: exportPolicies, format: 'JSON' } });

    const document = JSON.parse(exportPolicies) as {
      overrides: { policy: string; identifier: string; rules: object; reason?: string }[];
    };
    document.overrides.push({
      policy: 'api',
      identifier: 'other',
      rules: { burst: { capacity: 500 } },
    });
    const imported = await gqlError(app, admin, IMPORT, {
      i: { tenantId, document: JSON.stringify(document), format: 'JSON', dryRun: true },
    });
    expect(imported).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'document.overrides.1.rules.burst.capacity',
    });
    const raised = structuredClone(document);
    raised.overrides.pop();
    raised.overrides[0]!.rules = { burst: { capacity: 5000 } };
    expect(
      await gqlError(app, admin, IMPORT, {
        i: { tenantId, document: JSON.stringify(raised), format: 'JSON' },
      }),
    ).toMatchObject({ field: 'document.overrides.0.rules.burst.capacity' });
    await gql(app, op, IMPORT, {
      i: { tenantId, document: JSON.stringify(document), format: 'JSON' },
    });

    // the operator removes the overrides; the tenant admin cannot roll them back in
    await gql(app, op, IMPORT, {
      i: {
        tenantId,
        document: JSON.stringify({ ...document, overrides: [] }),
        format: 'JSON',
      },
    });
    const rollback = await gqlError(app, admin, ROLLBACK, {
      t: tenantId,
      v: createOverride.version,
    });
    expect(rollback).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(rollback.message).toMatch(/at most 50 \(the plan's bound\)/);
    await gql(app, op, ROLLBACK, { t: tenantId, v: createOverride.version });
  });
});
