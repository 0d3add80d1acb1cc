import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator } from './support/policies';
import {
  createTenant,
  createUser,
  loginWithBearer,
  startTestApp,
  type TestApp,
} from './support/test-app';

let app: TestApp;
let op: { token: string; user: { id: string; email: string } };

beforeAll(async () => {
  app = await startTestApp();
  op = await operator(app);
});
afterAll(async () => {
  await app?.close();
});

const DISABLE = /* GraphQL */ `
  mutation ($id: ID!, $disabled: Boolean!) {
    setUserDisabled(id: $id, disabled: $disabled) {
      id
      disabledAt
    }
  }
`;

describe('users', () => {
  it('change their own name, audited', async () => {
    const user = await createUser(app.prisma, { memberships: [{ role: 'operator' }] });
    const token = await loginWithBearer(app, user);
    const { updateProfile } = await gql<{ updateProfile: { name: string } }>(
      app,
      token,
      `mutation { updateProfile(input: { name: "  Ada Lovelace " }) { name } }`,
    );
    expect(updateProfile.name).toBe('Ada Lovelace');
    expect(
      await app.prisma.auditLog.findFirst({ where: { action: 'user.update', entityId: user.id } }),
    ).toMatchObject({ actorId: user.id, after: { name: 'Ada Lovelace' } });
    expect(
      await gqlError(app, token, `mutation { updateProfile(input: { name: " " }) { name } }`),
    ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.name' });
  });

  it('a disabled account loses its sessions and cannot log in until enabled again', async () => {
    const user = await createUser(app.prisma, { memberships: [{ role: 'operator' }] });
    const token = await loginWithBearer(app, user);
    const { setUserDisabled } = await gql<{ setUserDisabled: { disabledAt: string | null } }>(
      app,
      op.token,
      DISABLE,
      { id: user.id, disabled: true },
    );
    expect(setUserDisabled.disabledAt).not.toBeNull();
    expect(await gqlError(app, token, `{ me { id } }`)).toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(loginWithBearer(app, user)).rejects.toThrow(/login failed/);

    await gql(app, op.token, DISABLE, { id: user.id, disabled: false });
    const again = await loginWithBearer(app, user);
    expect((await gql<{ me: { id: string } }>(app, again, `{ me { id } }`)).me.id).toBe(user.id);
    const actions = await app.prisma.auditLog.findMany({
      where: { entityId: user.id, action: { startsWith: 'user.' } },
      orderBy: { id: 'asc' },
    });
    expect(actions.map((a) => a.action)).toEqual(['user.disable', 'user.enable']);
  });

  it("lists users with their memberships' tenants by name, found by part of email or name", async () => {
    const tenant = await createTenant(app.prisma, { name: 'Globex' });
    const user = await createUser(app.prisma, {
      email: `hank.scorpio.${Date.now()}@globex.example`,
      memberships: [{ role: 'tenant_viewer', tenantId: tenant.id }],
    });
    const USERS = /* GraphQL */ `
      query ($search: String) {
        users(filter: { search: $search }) {
          totalCount
          nodes {
            id
            memberships {
              role
              tenantId
              tenantName
            }
          }
        }
      }
    `;
    type Users = {
      users: {
        totalCount: number;
        nodes: { id: string; memberships: Record<string, string | null>[] }[];
      };
    };
    const found = await gql<Users>(app, op.token, USERS, { search: 'HANK.SCORPIO' });
    expect(found.users.nodes).toEqual([
      {
        id: user.id,
        memberships: [{ role: 'TENANT_VIEWER', tenantId: tenant.id, tenantName: 'Globex' }],
      },
    ]);
    const operators = await gql<Users>(app, op.token, USERS, { search: op.user.email });
    expect(operators.users.nodes[0]?.memberships).toEqual([
      { role: 'OPERATOR', tenantId: null, tenantName: null },
    ]);
  });

  it('an operator cannot disable their own account', async () => {
    expect(
      await gqlError(app, op.token, DISABLE, { id: op.user.id, disabled: true }),
    ).toMatchObject({ code: 'CONFLICT' });
  });
});
