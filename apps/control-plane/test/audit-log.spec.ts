import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator, planWithApi, tenantOn } from './support/policies';
import { createUser, loginWithBearer, startTestApp, type TestApp } from './support/test-app';

let app: TestApp;
let op: { token: string; user: { id: string; email: string } };

beforeAll(async () => {
  app = await startTestApp();
  op = await operator(app);
});
afterAll(async () => {
  await app?.close();
});

const AUDIT = /* GraphQL */ `
  query ($tenantId: ID, $action: String, $first: Int, $after: String) {
    auditLog(tenantId: $tenantId, action: $action, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        action
        actorType
        actorId
        tenantId
        entityType
        before
        after
      }
    }
  }
`;

interface Page {
  auditLog: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: {
      action: string;
      actorType: string;
      actorId: string | null;
      tenantId: string | null;
      before: string | null;
      after: string | null;
    }[];
  };
}

describe('auditLog', () => {
  it("lists a tenant's entries newest first, with who and before/after, page by page", async () => {
    const { planId } = await planWithApi(app, op.token);
    const tenantId = await tenantOn(app, op.token, planId);
    await gql(
      app,
      op.token,
      `mutation ($i: ChangePlanPolicyInput!) { changePlanPolicy(input: $i) { version } }`,
      { i: { tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 3 }] } },
    );
    const viewer = await loginWithBearer(
      app,
      await createUser(app.prisma, { memberships: [{ role: 'tenant_viewer', tenantId }] }),
    );
    const first = await gql<Page>(app, viewer, AUDIT, { tenantId, first: 1 });
    expect(first.auditLog.totalCount).toBe(2);
    expect(first.auditLog.nodes).toEqual([
      expect.objectContaining({
        action: 'policy_change.put',
        actorType: 'USER',
        actorId: op.user.id,
        tenantId,
        before: '{}',
        after: JSON.stringify({ burst: { capacity: 3 } }),
      }),
    ]);
    const second = await gql<Page>(app, viewer, AUDIT, {
      tenantId,
      first: 1,
      after: first.auditLog.pageInfo.endCursor,
    });
    expect(second.auditLog.nodes.map((n) => n.action)).toEqual(['tenant.create']);
    expect(second.auditLog.pageInfo.hasNextPage).toBe(false);

    const filtered = await gql<Page>(app, op.token, AUDIT, { tenantId, action: 'tenant.' });
    expect(filtered.auditLog.nodes.map((n) => n.action)).toEqual(['tenant.create']);
  });

  it("names the actors: every one for operators, the tenant's own members and keys for its roles", async () => {
    const { planId } = await planWithApi(app, op.token);
    const tenantId = await tenantOn(app, op.token, planId);
    const admin = await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId }],
    });
    const adminToken = await loginWithBearer(app, admin);
    await gql(
      app,
      adminToken,
      `mutation ($i: CreateApiKeyInput!) { createApiKey(input: $i) { secret } }`,
      { i: { tenantId, name: 'billing service' } },
    );
    const key = await app.prisma.apiKey.findFirstOrThrow({ where: { tenantId } });
    // an entry whose actor is the key, as the data plane's callers would make one
    await app.prisma.auditLog.create({
      data: {
        actorType: 'api_key',
        actorId: key.id,
        tenantId,
        action: 'test.by_key',
        entityType: 'ApiKey',
        entityId: key.id,
      },
    });
    const NAMES = /* GraphQL */ `
      query ($tenantId: ID) {
        auditLog(tenantId: $tenantId) {
          nodes {
            action
            actorName
          }
        }
      }
    `;
    type Names = { auditLog: { nodes: { action: string; actorName: string | null }[] } };
    const byOperator = await gql<Names>(app, op.token, NAMES, { tenantId });
    expect(byOperator.auditLog.nodes).toEqual([
      { action: 'test.by_key', actorName: 'billing service' },
      { action: 'api_key.create', actorName: admin.email },
      { action: 'tenant.create', actorName: op.user.email },
    ]);
    // the operator who created the tenant is not the tenant's to name
    const byAdmin = await gql<Names>(app, adminToken, NAMES, { tenantId });
    expect(byAdmin.auditLog.nodes.map((n) => n.actorName)).toEqual([
      'billing service',
      admin.email,
      null,
    ]);
  });

  it("refuses another tenant's log and a tenant role without a tenant", async () => {
    const { planId } = await planWithApi(app, op.token);
    const a = await tenantOn(app, op.token, planId);
    const b = await tenantOn(app, op.token, planId);
    const bAdmin = await loginWithBearer(
      app,
      await createUser(app.prisma, { memberships: [{ role: 'tenant_admin', tenantId: b }] }),
    );
    expect(await gqlError(app, bAdmin, AUDIT, { tenantId: a })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await gqlError(app, bAdmin, AUDIT, {})).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'tenantId',
    });
    expect(await gqlError(app, undefined, AUDIT, {})).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
