import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator } from './support/policies';
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

  it('an operator cannot disable their own account', async () => {
    expect(
      await gqlError(app, op.token, DISABLE, { id: op.user.id, disabled: true }),
    ).toMatchObject({ code: 'CONFLICT' });
  });
});
