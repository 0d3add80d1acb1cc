import type { GraphQLFormattedError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens';
import { SmtpSink } from '@sluice/testing';
import {
  createTenant,
  createUser,
  type GraphqlBody,
  loginWithBearer,
  setCookies,
  startTestApp,
  type TestApp,
  type TestTenant,
  type TestUser,
} from './support/test-app';

const INVITE = /* GraphQL */ `
  mutation Invite($input: InviteMemberInput!) {
    inviteMember(input: $input) {
      id
      email
      role
      tenantId
      expiresAt
      createdById
    }
  }
`;
const PREVIEW = /* GraphQL */ `
  query Preview($token: String!) {
    invitationPreview(token: $token) {
      email
      role
      tenantId
      tenantName
      expiresAt
      accountExists
    }
  }
`;
const ACCEPT = /* GraphQL */ `
  mutation Accept($input: AcceptInvitationInput!) {
    acceptInvitation(input: $input) {
      user {
        id
        email
        name
        memberships {
          tenantId
          role
        }
      }
      token
      csrfToken
    }
  }
`;
const INVITATIONS = /* GraphQL */ `
  query Invitations($tenantId: ID, $search: String) {
    invitations(tenantId: $tenantId, search: $search) {
      totalCount
      nodes {
        id
        email
      }
    }
  }
`;
const REVOKE = 'mutation Revoke($id: ID!) { revokeInvitation(id: $id) }';
const ME = 'query { me { id memberships { tenantId role } } }';

interface Accepted {
  acceptInvitation: {
    user: {
      id: string;
      email: string;
      name: string;
      memberships: { tenantId: string | null; role: string }[];
    };
    token: string | null;
    csrfToken: string | null;
  };
}

const LINK_BASE = 'https://dashboard.example.com/';
const PASSWORD = 'a long enough password';

let app: TestApp;
let smtp: SmtpSink;
let tenant: TestTenant;
let operator: string;
let admin: TestUser;
let adminToken: string;
let viewerToken: string;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  app = await startTestApp({
    SMTP_URL: smtp.url,
    CONTROL_PLANE_LINK_BASE_URL: LINK_BASE,
    CONTROL_PLANE_MAIL_FROM: 'Sluice <sluice@example.com>',
    CONTROL_PLANE_LOGIN_IP_LIMIT: '1000',
  });
  tenant = await createTenant(app.prisma, { name: 'Acme' });
  operator = await loginWithBearer(app, await createUser(app.prisma));
  admin = await createUser(app.prisma, {
    memberships: [{ role: 'tenant_admin', tenantId: tenant.id }],
  });
  adminToken = await loginWithBearer(app, admin);
  viewerToken = await loginWithBearer(
    app,
    await createUser(app.prisma, { memberships: [{ role: 'tenant_viewer', tenantId: tenant.id }] }),
  );
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

function dataOf<T>(body: GraphqlBody<T>): T {
  expect(body.errors).toBeUndefined();
  return body.data!;
}

function errorOf(body: GraphqlBody<unknown>): GraphQLFormattedError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0]!;
}

let sequence = 0;
function newEmail(): string {
  sequence += 1;
  return `invitee-${sequence}-${Date.now()}@example.com`;
}

/** Invites `email` and returns the token of the link the mail carries. */
async function invite(
  email: string,
  options: { role?: string; tenantId?: string | null; bearer?: string } = {},
): Promise<{ id: string; token: string }> {
  const response = await app.graphql<{ inviteMember: { id: string } }>(
    INVITE,
    {
      input: {
        email,
        role: options.role ?? 'TENANT_VIEWER',
        tenantId: options.tenantId === undefined ? tenant.id : options.tenantId,
      },
    },
    { bearer: options.bearer ?? adminToken },
  );
  const { id } = dataOf(response.body).inviteMember;
  const mail = await smtp.waitFor(email);
  const token = /\/invite\/([A-Za-z0-9_-]+)$/m.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation link in ${mail.text}`);
  return { id, token };
}

function accept(input: Record<string, unknown>) {
  return app.graphql<Accepted>(ACCEPT, { input: { transport: 'BEARER', ...input } });
}

describe('inviteMember', () => {
  it('mails a one-time link and stores only its hash', async () => {
    const email = newEmail();

    const response = await app.graphql<{ inviteMember: Record<string, unknown> }>(
      INVITE,
      { input: { email: ` ${email.toUpperCase()} `, role: 'TENANT_VIEWER', tenantId: tenant.id } },
      { bearer: adminToken },
    );

    const invitation = dataOf(response.body).inviteMember;
    expect(invitation).toMatchObject({
      email,
      role: 'TENANT_VIEWER',
      tenantId: tenant.id,
      createdById: admin.id,
    });
    const mail = await smtp.waitFor(email);
    expect(mail.from).toBe('sluice@example.com');
    expect(mail.subject).toBe('You are invited to Acme on Sluice');
    const token = /^https:\/\/dashboard\.example\.com\/invite\/([A-Za-z0-9_-]{43})$/m.exec(
      mail.text,
    )?.[1];
    expect(token).toBeDefined();
    const row = await app.prisma.invitation.findUniqueOrThrow({
      where: { id: invitation['id'] as string },
    });
    expect(row.tokenHash).toBe(hashToken(token!));
    expect(row.expiresAt.toISOString()).toBe(invitation['expiresAt']);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(7 * 86_400_000);
    expect(JSON.stringify(row)).not.toContain(token);
    const audit = await app.prisma.auditLog.findFirstOrThrow({
      where: { action: 'member.invite', entityId: row.id },
    });
    expect(audit).toMatchObject({
      actorId: admin.id,
      tenantId: tenant.id,
      entityType: 'Invitation',
      after: { email, role: 'tenant_viewer', replacedPending: 0 },
    });
    expect(JSON.stringify([audit.before, audit.after])).not.toContain(token);
  });

  it('replaces a pending invitation to the same address and tenant', async () => {
    const email = newEmail();
    const first = await invite(email);
    const second = await invite(email);

    const old = await accept({ token: first.token, name: 'Ada', password: PASSWORD });
    expect(errorOf(old.body)).toMatchObject({
      message: 'is not a valid invitation link',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.token' },
    });
    expect(await app.prisma.invitation.count({ where: { email } })).toBe(1);
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'member.invite', entityId: second.id },
      }),
    ).toMatchObject({ after: expect.objectContaining({ replacedPending: 1 }) });
    expect(
      (await accept({ token: second.token, name: 'Ada', password: PASSWORD })).body.errors,
    ).toBeUndefined();
  });

  it.each([
    [{ email: 'not an email' }, 'input.email', 'must be an email address'],
    [
      { role: 'OPERATOR', tenantId: 'tnt_x' },
      'input.tenantId',
      'must be left out for OPERATOR (operators belong to no tenant)',
    ],
    [{ tenantId: null }, 'input.tenantId', 'is required for TENANT_ADMIN and TENANT_VIEWER'],
  ])('refuses %j naming %s', async (input, field, message) => {
    const response = await app.graphql(
      INVITE,
      { input: { email: newEmail(), role: 'TENANT_ADMIN', tenantId: tenant.id, ...input } },
      { bearer: operator },
    );

    expect(errorOf(response.body)).toMatchObject({
      message,
      extensions: { code: 'BAD_USER_INPUT', field },
    });
  });

  it('refuses an address that is already a member (CONFLICT)', async () => {
    const response = await app.graphql(
      INVITE,
      { input: { email: admin.email, role: 'TENANT_VIEWER', tenantId: tenant.id } },
      { bearer: operator },
    );

    expect(errorOf(response.body).extensions).toEqual({ code: 'CONFLICT', field: 'input.email' });
  });

  it('lets tenant admins invite into their own tenant only, and operators anywhere', async () => {
    const other = await createTenant(app.prisma);
    const count = () => app.prisma.invitation.count();
    const before = await count();
    const cases: [Record<string, unknown>, string | undefined, string][] = [
      [{ tenantId: other.id }, adminToken, 'NOT_FOUND'],
      [{ role: 'OPERATOR', tenantId: null }, adminToken, 'FORBIDDEN'],
      [{}, viewerToken, 'FORBIDDEN'],
      [{}, undefined, 'UNAUTHENTICATED'],
    ];
    for (const [input, bearer, code] of cases) {
      const response = await app.graphql(
        INVITE,
        { input: { email: newEmail(), role: 'TENANT_ADMIN', tenantId: tenant.id, ...input } },
        bearer ? { bearer } : {},
      );
      expect(errorOf(response.body).extensions?.['code']).toBe(code);
    }
    expect(await count()).toBe(before);

    const email = newEmail();
    const { token } = await invite(email, {
      tenantId: other.id,
      role: 'TENANT_ADMIN',
      bearer: operator,
    });
    const accepted = await accept({ token, name: 'Grace', password: PASSWORD });
    expect(dataOf(accepted.body).acceptInvitation.user.memberships).toEqual([
      { tenantId: other.id, role: 'TENANT_ADMIN' },
    ]);
  });

  it('lets operators invite operators', async () => {
    const email = newEmail();
    const { token } = await invite(email, { role: 'OPERATOR', tenantId: null, bearer: operator });

    const preview = await app.graphql(PREVIEW, { token });
    expect(dataOf(preview.body)).toMatchObject({
      invitationPreview: { email, role: 'OPERATOR', tenantId: null, tenantName: null },
    });
    const accepted = await accept({ token, name: 'Op', password: PASSWORD });
    expect(dataOf(accepted.body).acceptInvitation.user.memberships).toEqual([
      { tenantId: null, role: 'OPERATOR' },
    ]);
  });
});

describe('acceptInvitation', () => {
  it('creates the account, signs it in and uses the link up', async () => {
    const email = newEmail();
    const { id, token } = await invite(email, { role: 'TENANT_ADMIN' });

    const preview = await app.graphql(PREVIEW, { token });
    expect(dataOf(preview.body)).toEqual({
      invitationPreview: {
        email,
        role: 'TENANT_ADMIN',
        tenantId: tenant.id,
        tenantName: 'Acme',
        expiresAt: expect.any(String),
        accountExists: false,
      },
    });
    const response = await accept({ token, name: ' Ada Lovelace ', password: PASSWORD });

    const { user, token: session } = dataOf(response.body).acceptInvitation;
    expect(user).toMatchObject({
      email,
      name: 'Ada Lovelace',
      memberships: [{ tenantId: tenant.id, role: 'TENANT_ADMIN' }],
    });
    const me = await app.graphql<{ me: { id: string } }>(ME, {}, { bearer: session! });
    expect(dataOf(me.body).me.id).toBe(user.id);
    const row = await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordChangedAt).not.toBeNull();
    expect((await loginWithBearer(app, { id: user.id, email, password: PASSWORD })).length).toBe(
      43,
    );
    expect(
      (await app.prisma.invitation.findUniqueOrThrow({ where: { id } })).acceptedAt,
    ).not.toBeNull();
    const audits = await app.prisma.auditLog.findMany({
      where: { actorId: user.id, action: { in: ['user.create', 'member.accept_invitation'] } },
      orderBy: { id: 'asc' },
    });
    expect(audits.map((a) => [a.action, a.tenantId, a.after])).toEqual([
      ['user.create', null, { email, name: 'Ada Lovelace', invitationId: id }],
      [
        'member.accept_invitation',
        tenant.id,
        expect.objectContaining({ userId: user.id, role: 'tenant_admin', newAccount: true }),
      ],
    ]);
    expect(JSON.stringify(audits.map((a) => [a.before, a.after]))).not.toContain(PASSWORD);

    const reused = await accept({ token, name: 'Mallory', password: PASSWORD });
    expect(errorOf(reused.body)).toMatchObject({
      message: 'was already used',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.token' },
    });
    expect(errorOf((await app.graphql(PREVIEW, { token })).body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'token',
      issues: [{ field: 'token', message: 'was already used' }],
    });
  });

  it('sets the session cookies with transport COOKIE', async () => {
    const email = newEmail();
    const { token } = await invite(email);

    const response = await accept({
      token,
      name: 'Cookie',
      password: PASSWORD,
      transport: 'COOKIE',
    });

    const { csrfToken, token: bearer } = dataOf(response.body).acceptInvitation;
    expect(bearer).toBeNull();
    const cookies = setCookies(response.headers);
    expect(cookies.get('sluice_csrf')?.value).toBe(csrfToken);
    const me = await app.graphql(
      ME,
      {},
      {
        cookies: { sluice_session: cookies.get('sluice_session')!.value },
      },
    );
    expect(me.body.errors).toBeUndefined();
  });

  it('refuses an expired link', async () => {
    const { id, token } = await invite(newEmail());
    await app.prisma.invitation.update({
      where: { id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });

    const response = await accept({ token, name: 'Late', password: PASSWORD });

    expect(errorOf(response.body)).toMatchObject({
      message: 'has expired; ask for a new invitation',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.token' },
    });
    expect(
      (await app.prisma.invitation.findUniqueOrThrow({ where: { id } })).acceptedAt,
    ).toBeNull();
  });

  it.each([
    [{ token: 'x'.repeat(43) }, 'input.token', 'is not a valid invitation link'],
    [{ token: 'short' }, 'input.token', 'is not a valid link (copy the whole link)'],
    [{ name: null }, 'input.name', 'is required for a new account'],
    [{ name: '  ' }, 'input.name', 'is required for a new account'],
    [{ password: 'too short' }, 'input.password', 'must be at least 12 characters'],
  ])('refuses %j naming %s, and leaves the link usable', async (input, field, message) => {
    const email = newEmail();
    const { id, token } = await invite(email);

    const response = await accept({ token, name: 'Ada', password: PASSWORD, ...input });

    expect(errorOf(response.body)).toMatchObject({
      message,
      extensions: { code: 'BAD_USER_INPUT', field },
    });
    expect(
      (await app.prisma.invitation.findUniqueOrThrow({ where: { id } })).acceptedAt,
    ).toBeNull();
    expect(await app.prisma.user.count({ where: { email } })).toBe(0);
  });

  it('adds the membership to an existing account once its current password is given', async () => {
    const other = await createTenant(app.prisma, { name: 'Other' });
    const existing = await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId: other.id }],
    });
    const { id, token } = await invite(existing.email);
    expect(dataOf((await app.graphql(PREVIEW, { token })).body)).toMatchObject({
      invitationPreview: { accountExists: true },
    });

    const wrong = await accept({ token, password: 'not the password at all' });
    expect(errorOf(wrong.body)).toMatchObject({
      message: `${existing.email} already has an account: enter its current password to accept.`,
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect(
      (await app.prisma.invitation.findUniqueOrThrow({ where: { id } })).acceptedAt,
    ).toBeNull();

    const right = await accept({ token, name: 'ignored', password: existing.password });
    const { user } = dataOf(right.body).acceptInvitation;
    expect(user.id).toBe(existing.id);
    expect(user.name).toBe('');
    expect(user.memberships).toEqual(
      expect.arrayContaining([
        { tenantId: other.id, role: 'TENANT_ADMIN' },
        { tenantId: tenant.id, role: 'TENANT_VIEWER' },
      ]),
    );
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'member.accept_invitation', entityId: id },
      }),
    ).toMatchObject({
      actorId: existing.id,
      after: expect.objectContaining({ newAccount: false }),
    });
  });
});

describe('invitations and revokeInvitation', () => {
  it('lists pending invitations and withdraws one, whose link then stops working', async () => {
    const email = newEmail();
    const { id, token } = await invite(email);

    const listed = await app.graphql<{ invitations: { nodes: { id: string }[] } }>(
      INVITATIONS,
      { tenantId: tenant.id },
      { bearer: viewerToken },
    );
    expect(dataOf(listed.body).invitations.nodes.map((n) => n.id)).toContain(id);
    const searched = await app.graphql<{ invitations: { nodes: { id: string }[] } }>(
      INVITATIONS,
      { tenantId: tenant.id, search: ` ${email.slice(0, 12).toUpperCase()} ` },
      { bearer: viewerToken },
    );
    expect(dataOf(searched.body).invitations.nodes.map((n) => n.id)).toEqual([id]);
    const tooLong = await app.graphql(
      INVITATIONS,
      { tenantId: tenant.id, search: 'x'.repeat(101) },
      { bearer: viewerToken },
    );
    expect(errorOf(tooLong.body).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'search',
    });
    const byViewer = await app.graphql(REVOKE, { id }, { bearer: viewerToken });
    expect(errorOf(byViewer.body).extensions?.['code']).toBe('FORBIDDEN');
    const operatorsOnly = await app.graphql(INVITATIONS, {}, { bearer: adminToken });
    expect(errorOf(operatorsOnly.body).extensions?.['code']).toBe('FORBIDDEN');

    const revoked = await app.graphql(REVOKE, { id }, { bearer: adminToken });

    expect(dataOf(revoked.body)).toEqual({ revokeInvitation: true });
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'member.revoke_invitation', entityId: id },
      }),
    ).toMatchObject({ actorId: admin.id, before: expect.objectContaining({ email }) });
    const response = await accept({ token, name: 'Too late', password: PASSWORD });
    expect(errorOf(response.body).message).toBe('is not a valid invitation link');
  });
});
