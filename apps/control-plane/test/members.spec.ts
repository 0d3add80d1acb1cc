import type { GraphQLFormattedError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockMemberships } from '../src/member/membership-lock';
import { eventually } from './support/policies';
import {
  createTenant,
  createUser,
  type GraphqlBody,
  loginWithBearer,
  startTestApp,
  type TestApp,
  type TestTenant,
  type TestUser,
} from './support/test-app';

const MEMBERS = /* GraphQL */ `
  query Members($tenantId: ID!, $search: String, $first: Int, $after: String) {
    members(tenantId: $tenantId, search: $search, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        userId
        email
        name
        role
        tenantId
        since
      }
    }
  }
`;
const OPERATORS = 'query { operators { totalCount nodes { userId role tenantId } } }';
const USERS = /* GraphQL */ `
  query Users($filter: UserFilter) {
    users(filter: $filter) {
      totalCount
      nodes {
        id
        email
        memberships {
          tenantId
          role
        }
      }
    }
  }
`;
const CHANGE_ROLE = /* GraphQL */ `
  mutation ChangeRole($input: ChangeMemberRoleInput!) {
    changeMemberRole(input: $input) {
      userId
      role
      tenantId
    }
  }
`;
const REMOVE = /* GraphQL */ `
  mutation Remove($userId: ID!, $tenantId: ID) {
    removeMember(userId: $userId, tenantId: $tenantId)
  }
`;

interface MemberNode {
  id: string;
  userId: string;
  email: string;
  name: string;
  role: string;
  tenantId: string | null;
  since: string;
}

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ CONTROL_PLANE_LOGIN_IP_LIMIT: '1000' });
});
afterAll(() => app?.close());

function dataOf<T>(body: GraphqlBody<T>): T {
  expect(body.errors).toBeUndefined();
  return body.data!;
}

function errorOf(body: GraphqlBody<unknown>): GraphQLFormattedError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0]!;
}

interface Team {
  tenant: TestTenant;
  admin: TestUser;
  viewer: TestUser;
  token: { admin: string; viewer: string };
}

/** A tenant with an admin and a viewer, both signed in. */
async function team(): Promise<Team> {
  const tenant = await createTenant(app.prisma);
  const admin = await createUser(app.prisma, {
    memberships: [{ role: 'tenant_admin', tenantId: tenant.id }],
  });
  const viewer = await createUser(app.prisma, {
    memberships: [{ role: 'tenant_viewer', tenantId: tenant.id }],
  });
  return {
    tenant,
    admin,
    viewer,
    token: { admin: await loginWithBearer(app, admin), viewer: await loginWithBearer(app, viewer) },
  };
}

async function operatorToken(): Promise<{ user: TestUser; token: string }> {
  const user = await createUser(app.prisma);
  return { user, token: await loginWithBearer(app, user) };
}

describe('members', () => {
  it('lists a tenant’s members with their role, page by page, to its members and operators', async () => {
    const a = await team();
    const b = await team();
    const { token: operator } = await operatorToken();
    // a member of both tenants shows only its role in the tenant asked about
    const both = await createUser(app.prisma, {
      memberships: [
        { role: 'tenant_viewer', tenantId: a.tenant.id },
        { role: 'tenant_admin', tenantId: b.tenant.id },
      ],
    });

    for (const bearer of [a.token.viewer, a.token.admin, operator]) {
      const response = await app.graphql<{ members: { totalCount: number; nodes: MemberNode[] } }>(
        MEMBERS,
        { tenantId: a.tenant.id },
        { bearer },
      );
      const { members } = dataOf(response.body);
      expect(members.totalCount).toBe(3);
      expect(members.nodes.map((m) => [m.userId, m.email, m.role, m.tenantId])).toEqual([
        [a.admin.id, a.admin.email, 'TENANT_ADMIN', a.tenant.id],
        [a.viewer.id, a.viewer.email, 'TENANT_VIEWER', a.tenant.id],
        [both.id, both.email, 'TENANT_VIEWER', a.tenant.id],
      ]);
    }
    const first = await app.graphql<{
      members: { pageInfo: { endCursor: string }; nodes: MemberNode[] };
    }>(MEMBERS, { tenantId: a.tenant.id, first: 2 }, { bearer: a.token.viewer });
    const rest = await app.graphql<{
      members: { pageInfo: { hasNextPage: boolean }; nodes: MemberNode[] };
    }>(
      MEMBERS,
      { tenantId: a.tenant.id, first: 2, after: dataOf(first.body).members.pageInfo.endCursor },
      { bearer: a.token.viewer },
    );
    expect(dataOf(rest.body).members.nodes.map((m) => m.userId)).toEqual([both.id]);
    expect(dataOf(rest.body).members.pageInfo.hasNextPage).toBe(false);

    // searched by part of the name or of the email, in any case
    const search = async (text: string) => {
      const response = await app.graphql<{ members: { nodes: MemberNode[] } }>(
        MEMBERS,
        { tenantId: a.tenant.id, search: text },
        { bearer: a.token.viewer },
      );
      return dataOf(response.body).members.nodes.map((m) => m.userId);
    };
    expect(await search(both.email.toUpperCase())).toEqual([both.id]);
    await app.prisma.user.update({ where: { id: a.viewer.id }, data: { name: 'Zoë Quartz' } });
    expect(await search('quartz')).toEqual([a.viewer.id]);
    const tooLong = await app.graphql(
      MEMBERS,
      { tenantId: a.tenant.id, search: 'x'.repeat(101) },
      { bearer: a.token.viewer },
    );
    expect(errorOf(tooLong.body).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'search',
    });

    // another tenant's admin and an anonymous caller
    expect(
      errorOf(
        (await app.graphql(MEMBERS, { tenantId: a.tenant.id }, { bearer: b.token.admin })).body,
      ).extensions?.['code'],
    ).toBe('NOT_FOUND');
    expect(
      errorOf((await app.graphql(MEMBERS, { tenantId: a.tenant.id })).body).extensions?.['code'],
    ).toBe('UNAUTHENTICATED');
  });

  it('lists operators and users to operators only', async () => {
    const a = await team();
    const { user, token } = await operatorToken();

    const operators = await app.graphql<{
      operators: { nodes: { userId: string; role: string; tenantId: null }[] };
    }>(OPERATORS, {}, { bearer: token });
    expect(dataOf(operators.body).operators.nodes).toContainEqual({
      userId: user.id,
      role: 'OPERATOR',
      tenantId: null,
    });
    const users = await app.graphql<{
      users: { totalCount: number; nodes: { id: string; memberships: unknown[] }[] };
    }>(USERS, { filter: { search: a.admin.email.toUpperCase() } }, { bearer: token });
    expect(dataOf(users.body).users).toEqual({
      totalCount: 1,
      nodes: [
        {
          id: a.admin.id,
          email: a.admin.email,
          memberships: [{ tenantId: a.tenant.id, role: 'TENANT_ADMIN' }],
        },
      ],
    });

    for (const query of [OPERATORS, USERS]) {
      const refused = await app.graphql(query, {}, { bearer: a.token.admin });
      expect(errorOf(refused.body).extensions?.['code']).toBe('FORBIDDEN');
    }
  });
});

describe('changeMemberRole', () => {
  it('lets a tenant admin promote a viewer, audited with before and after', async () => {
    const a = await team();

    const response = await app.graphql<{ changeMemberRole: unknown }>(
      CHANGE_ROLE,
      { input: { userId: a.viewer.id, tenantId: a.tenant.id, role: 'TENANT_ADMIN' } },
      { bearer: a.token.admin },
    );

    expect(dataOf(response.body).changeMemberRole).toEqual({
      userId: a.viewer.id,
      role: 'TENANT_ADMIN',
      tenantId: a.tenant.id,
    });
    const membership = await app.prisma.membership.findFirstOrThrow({
      where: { userId: a.viewer.id, tenantId: a.tenant.id },
    });
    expect(membership.role).toBe('tenant_admin');
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'member.change_role', entityId: membership.id },
      }),
    ).toMatchObject({
      actorId: a.admin.id,
      tenantId: a.tenant.id,
      entityType: 'Membership',
      before: { userId: a.viewer.id, email: a.viewer.email, role: 'tenant_viewer' },
      after: { userId: a.viewer.id, email: a.viewer.email, role: 'tenant_admin' },
    });
    // the promoted viewer's live session has the new role at once
    const promoted = await app.graphql(
      CHANGE_ROLE,
      { input: { userId: a.admin.id, tenantId: a.tenant.id, role: 'TENANT_VIEWER' } },
      { bearer: a.token.viewer },
    );
    expect(promoted.body.errors).toBeUndefined();
  });

  it('refuses to leave a tenant without an admin, even when two admins demote each other at once', async () => {
    const a = await team();
    const second = await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId: a.tenant.id }],
    });
    const secondToken = await loginWithBearer(app, second);
    const demote = (userId: string, bearer: string) =>
      app.graphql(
        CHANGE_ROLE,
        { input: { userId, tenantId: a.tenant.id, role: 'TENANT_VIEWER' } },
        { bearer },
      );

    // "at once" whatever the machine's speed: the test holds the tenant's membership lock until
    // both requests wait on it, past their access checks (one finishing before the other started
    // would leave the second caller a viewer, refused as FORBIDDEN instead)
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = () => {};
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = app.prisma.$transaction(
      async (tx) => {
        await lockMemberships(tx, a.tenant.id);
        held();
        await released;
      },
      { maxWait: 30_000, timeout: 120_000 },
    );
    await holding;
    const pending = Promise.all([
      demote(second.id, a.token.admin),
      demote(a.admin.id, secondToken),
    ]);
    try {
      await eventually(
        'both demotions waiting on the membership lock',
        () =>
          app.prisma.$queryRaw<{ waiting: number }[]>`
            SELECT count(*)::int AS waiting FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        (rows) => (rows[0]?.waiting ?? 0) >= 2,
      );
    } finally {
      release();
      await holder;
    }
    const answers = await pending;

    const codes = answers.map((answer) => answer.body.errors?.[0]?.extensions?.['code'] ?? 'ok');
    expect(codes.sort()).toEqual(['CONFLICT', 'ok']);
    expect(
      await app.prisma.membership.count({ where: { tenantId: a.tenant.id, role: 'tenant_admin' } }),
    ).toBe(1);
    const refused = answers.find((answer) => answer.body.errors)!;
    expect(errorOf(refused.body)).toMatchObject({
      message: expect.stringContaining('at least one TENANT_ADMIN'),
      extensions: { code: 'CONFLICT', field: 'input.role' },
    });
  });

  it('keeps each role to its tenant', async () => {
    const a = await team();
    const b = await team();
    const input = { userId: a.viewer.id, tenantId: a.tenant.id, role: 'TENANT_ADMIN' };

    const cases: [string | undefined, string][] = [
      [a.token.viewer, 'FORBIDDEN'],
      [b.token.admin, 'NOT_FOUND'],
      [undefined, 'UNAUTHENTICATED'],
    ];
    for (const [bearer, code] of cases) {
      const response = await app.graphql(CHANGE_ROLE, { input }, bearer ? { bearer } : {});
      expect(errorOf(response.body).extensions?.['code']).toBe(code);
    }
    // b's admin cannot reach a's members through its own tenant either
    const across = await app.graphql(
      CHANGE_ROLE,
      { input: { ...input, tenantId: b.tenant.id } },
      { bearer: b.token.admin },
    );
    expect(errorOf(across.body).extensions?.['code']).toBe('NOT_FOUND');
    const membership = await app.prisma.membership.findFirstOrThrow({
      where: { userId: a.viewer.id },
    });
    expect(membership.role).toBe('tenant_viewer');
    expect(await app.prisma.auditLog.count({ where: { entityId: membership.id } })).toBe(0);
  });

  it('refuses the OPERATOR role, naming the field', async () => {
    const a = await team();

    const response = await app.graphql(
      CHANGE_ROLE,
      { input: { userId: a.viewer.id, tenantId: a.tenant.id, role: 'OPERATOR' } },
      { bearer: a.token.admin },
    );

    expect(errorOf(response.body)).toMatchObject({
      message: expect.stringContaining('TENANT_ADMIN or TENANT_VIEWER'),
      extensions: { code: 'BAD_USER_INPUT', field: 'input.role' },
    });
  });
});

describe('removeMember', () => {
  it('removes a member: audited, and the removed user’s session loses access at once', async () => {
    const a = await team();

    const response = await app.graphql(
      REMOVE,
      { userId: a.viewer.id, tenantId: a.tenant.id },
      { bearer: a.token.admin },
    );

    expect(dataOf(response.body)).toEqual({ removeMember: true });
    expect(await app.prisma.membership.count({ where: { userId: a.viewer.id } })).toBe(0);
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'member.remove', tenantId: a.tenant.id },
      }),
    ).toMatchObject({
      actorId: a.admin.id,
      entityType: 'Membership',
      before: { userId: a.viewer.id, email: a.viewer.email, role: 'tenant_viewer' },
      after: null,
    });
    const after = await app.graphql(MEMBERS, { tenantId: a.tenant.id }, { bearer: a.token.viewer });
    expect(errorOf(after.body).extensions?.['code']).toBe('NOT_FOUND');
    const again = await app.graphql(
      REMOVE,
      { userId: a.viewer.id, tenantId: a.tenant.id },
      { bearer: a.token.admin },
    );
    expect(errorOf(again.body).extensions?.['code']).toBe('NOT_FOUND');
  });

  it('refuses to remove the last admin of a tenant', async () => {
    const a = await team();
    const { token: operator } = await operatorToken();

    for (const bearer of [a.token.admin, operator]) {
      const response = await app.graphql(
        REMOVE,
        { userId: a.admin.id, tenantId: a.tenant.id },
        { bearer },
      );
      expect(errorOf(response.body)).toMatchObject({
        message: expect.stringContaining('at least one TENANT_ADMIN'),
        extensions: { code: 'CONFLICT' },
      });
    }
    expect(await app.prisma.membership.count({ where: { userId: a.admin.id } })).toBe(1);
  });

  it('keeps each role to its tenant and operators to operators', async () => {
    const a = await team();
    const b = await team();
    const { user: operator } = await operatorToken();

    const cases: [Record<string, unknown>, string | undefined, string][] = [
      [{ userId: a.viewer.id, tenantId: a.tenant.id }, a.token.viewer, 'FORBIDDEN'],
      [{ userId: a.viewer.id, tenantId: a.tenant.id }, b.token.admin, 'NOT_FOUND'],
      [{ userId: a.viewer.id, tenantId: a.tenant.id }, undefined, 'UNAUTHENTICATED'],
      [{ userId: operator.id }, a.token.admin, 'FORBIDDEN'],
    ];
    for (const [variables, bearer, code] of cases) {
      const response = await app.graphql(REMOVE, variables, bearer ? { bearer } : {});
      expect(errorOf(response.body).extensions?.['code']).toBe(code);
    }
    expect(await app.prisma.membership.count({ where: { userId: a.viewer.id } })).toBe(1);
    expect(await app.prisma.membership.count({ where: { userId: operator.id } })).toBe(1);
  });

  it('lets operators remove operators, but never the last one', async () => {
    // a platform of its own: the other tests' operators must not count
    const platform = await startTestApp({ CONTROL_PLANE_LOGIN_IP_LIMIT: '1000' });
    try {
      const first = await createUser(platform.prisma);
      const second = await createUser(platform.prisma);
      const firstToken = await loginWithBearer(platform, first);

      const removed = await platform.graphql(REMOVE, { userId: second.id }, { bearer: firstToken });
      expect(dataOf(removed.body)).toEqual({ removeMember: true });
      const last = await platform.graphql(REMOVE, { userId: first.id }, { bearer: firstToken });
      expect(errorOf(last.body)).toMatchObject({
        message: 'The platform needs at least one operator.',
        extensions: { code: 'CONFLICT' },
      });
      expect(
        await platform.prisma.membership.findMany({
          where: { role: 'operator' },
          select: { userId: true },
        }),
      ).toEqual([{ userId: first.id }]);
      expect(
        await platform.prisma.auditLog.count({
          where: { action: 'member.remove', actorId: first.id, tenantId: null },
        }),
      ).toBe(1);
    } finally {
      await platform.close();
    }
  });
});
