import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator, planWithApi, tenantOn } from './support/policies';
import { createUser, loginWithBearer, startTestApp, type TestApp } from './support/test-app';

let app: TestApp;
let op: { token: string; user: { id: string } };

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
