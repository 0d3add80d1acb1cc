import type { GraphQLFormattedError } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens';
import { SmtpSink } from '@sluice/testing';
import {
  createUser,
  type GraphqlBody,
  LOGIN,
  loginWithBearer,
  startTestApp,
  type TestApp,
  type TestUser,
} from './support/test-app';

const REQUEST = 'mutation Request($email: String!) { requestPasswordReset(email: $email) }';
const RESET = 'mutation Reset($input: ResetPasswordInput!) { resetPassword(input: $input) }';
const CHANGE = 'mutation Change($input: ChangePasswordInput!) { changePassword(input: $input) }';
const ME = 'query { me { id } }';
const NEW_PASSWORD = 'a brand new passphrase';

let app: TestApp;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  app = await startTestApp({
    SMTP_URL: smtp.url,
    CONTROL_PLANE_LINK_BASE_URL: 'https://dashboard.example.com',
    CONTROL_PLANE_LOGIN_IP_LIMIT: '1000',
  });
});
// the throttles count per address and IP: each test starts from none
afterEach(() => app.resetRedis());
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

function errorOf(body: GraphqlBody<unknown>): GraphQLFormattedError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0]!;
}

/** Asks for a reset of `user` and returns the token of the mailed link. */
async function requestLink(user: TestUser): Promise<string> {
  const response = await app.graphql(REQUEST, { email: user.email });
  expect(response.body).toEqual({ data: { requestPasswordReset: true } });
  const mail = await smtp.waitFor(user.email);
  expect(mail.subject).toBe('Reset your Sluice password');
  const token = /^https:\/\/dashboard\.example\.com\/reset-password\/([A-Za-z0-9_-]{43})$/m.exec(
    mail.text,
  )?.[1];
  if (!token) throw new Error(`no reset link in ${mail.text}`);
  return token;
}

async function sessionWorks(token: string): Promise<boolean | string> {
  const response = await app.graphql(ME, {}, { bearer: token });
  if (!response.body.errors) return true;
  return String(response.body.errors[0]?.extensions?.['code']);
}

describe('requestPasswordReset', () => {
  it('answers the same for unknown and known addresses, mailing only the known one', async () => {
    const user = await createUser(app.prisma, { memberships: [] });
    const unknown = `nobody-${user.id}@example.com`;

    const forUnknown = await app.graphql(REQUEST, { email: unknown });
    const token = await requestLink(user);

    expect(forUnknown.status).toBe(200);
    expect(forUnknown.body).toEqual({ data: { requestPasswordReset: true } });
    expect(smtp.sentTo(unknown)).toEqual([]);
    const row = await app.prisma.passwordResetToken.findFirstOrThrow({
      where: { userId: user.id },
    });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(row.usedAt).toBeNull();
    const ttl = row.expiresAt.getTime() - row.createdAt.getTime();
    expect(ttl).toBe(3600 * 1000);
    const audits = await app.prisma.auditLog.findMany({
      where: { action: 'auth.password_reset_requested', entityId: { in: [user.id, 'unknown'] } },
      orderBy: { id: 'asc' },
    });
    expect(audits.map((a) => a.after)).toEqual([
      { email: unknown, outcome: 'unknown-account' },
      expect.objectContaining({ email: user.email, outcome: 'sent', tokenId: row.id }),
    ]);
    expect(JSON.stringify(audits.map((a) => [a.before, a.after]))).not.toContain(token);
  });

  it('keeps only the newest link working', async () => {
    const user = await createUser(app.prisma, { memberships: [] });
    const older = await requestLink(user);
    const newer = await requestLink(user);

    const stale = await app.graphql(RESET, { input: { token: older, password: NEW_PASSWORD } });

    expect(errorOf(stale.body)).toMatchObject({
      message: 'is not a valid password reset link',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.token' },
    });
    const fresh = await app.graphql(RESET, { input: { token: newer, password: NEW_PASSWORD } });
    expect(fresh.body).toEqual({ data: { resetPassword: true } });
  });

  it('is throttled per address alike whether or not it exists, apart from login', async () => {
    const user = await createUser(app.prisma, { memberships: [] });
    const unknown = `nobody-${user.id}@example.com`;

    for (const email of [user.email, unknown]) {
      for (let i = 0; i < 5; i++) {
        expect((await app.graphql(REQUEST, { email })).body.errors).toBeUndefined();
      }
      const refused = await app.graphql(REQUEST, { email });
      expect(errorOf(refused.body)).toMatchObject({
        message: 'Too many password reset requests. Try again in 15 minutes.',
        extensions: { code: 'TOO_MANY_REQUESTS' },
      });
    }
    const login = await app.graphql(LOGIN, {
      input: { email: user.email, password: user.password },
    });
    expect(login.body.errors).toBeUndefined();
  });

  it('names a malformed address', async () => {
    const response = await app.graphql(REQUEST, { email: 'not-an-email' });

    expect(errorOf(response.body)).toMatchObject({
      message: 'must be an email address',
      extensions: { code: 'BAD_USER_INPUT', field: 'email' },
    });
  });
});

describe('resetPassword', () => {
  it('sets the password, uses the link up and ends every session of the account', async () => {
    const user = await createUser(app.prisma, { memberships: [] });
    const sessions = [await loginWithBearer(app, user), await loginWithBearer(app, user)];
    const token = await requestLink(user);

    const response = await app.graphql(RESET, { input: { token, password: NEW_PASSWORD } });

    expect(response.body).toEqual({ data: { resetPassword: true } });
    for (const session of sessions) expect(await sessionWorks(session)).toBe('UNAUTHENTICATED');
    const oldLogin = await app.graphql(LOGIN, {
      input: { email: user.email, password: user.password },
    });
    expect(errorOf(oldLogin.body).extensions?.['code']).toBe('UNAUTHENTICATED');
    const fresh = await loginWithBearer(app, { ...user, password: NEW_PASSWORD });
    expect(await sessionWorks(fresh)).toBe(true);
    const row = await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordChangedAt).not.toBeNull();
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'auth.password_reset', entityId: user.id },
      }),
    ).toMatchObject({ actorId: user.id, after: expect.objectContaining({ sessionsRevoked: 2 }) });

    const reused = await app.graphql(RESET, {
      input: { token, password: 'yet another passphrase' },
    });
    expect(errorOf(reused.body)).toMatchObject({
      message: 'was already used; ask for a new one',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.token' },
    });
    expect(await sessionWorks(fresh)).toBe(true);
  });

  it('refuses an expired link and changes nothing', async () => {
    const user = await createUser(app.prisma, { memberships: [] });
    const session = await loginWithBearer(app, user);
    const token = await requestLink(user);
    await app.prisma.passwordResetToken.update({
      where: { tokenHash: hashToken(token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });

    const response = await app.graphql(RESET, { input: { token, password: NEW_PASSWORD } });

    expect(errorOf(response.body)).toMatchObject({
      message: 'has expired; ask for a new one',
      extensions: { code: 'BAD_USER_INPUT', field: 'input.token' },
    });
    expect(await sessionWorks(session)).toBe(true);
    await loginWithBearer(app, user);
  });

  it.each([
    [{ token: 'not-a-token' }, 'input.token', 'is not a valid link (copy the whole link)'],
    [{ password: 'short' }, 'input.password', 'must be at least 12 characters'],
  ])('refuses %j naming %s', async (input, field, message) => {
    const user = await createUser(app.prisma, { memberships: [] });
    const token = await requestLink(user);

    const response = await app.graphql(RESET, {
      input: { token, password: NEW_PASSWORD, ...input },
    });

    expect(errorOf(response.body)).toMatchObject({
      message,
      extensions: { code: 'BAD_USER_INPUT', field },
    });
    const row = await app.prisma.passwordResetToken.findUniqueOrThrow({
      where: { tokenHash: hashToken(token) },
    });
    expect(row.usedAt).toBeNull();
  });
});

describe('changePassword', () => {
  it('keeps the current session and ends every other one', async () => {
    const user = await createUser(app.prisma, { memberships: [] });
    const current = await loginWithBearer(app, user);
    const other = await loginWithBearer(app, user);
    const asked = Date.now();

    const response = await app.graphql(
      CHANGE,
      { input: { currentPassword: user.password, newPassword: NEW_PASSWORD } },
      { bearer: current },
    );

    expect(response.body).toEqual({ data: { changePassword: true } });
    expect(await sessionWorks(current)).toBe(true);
    expect(await sessionWorks(other)).toBe('UNAUTHENTICATED');
    const row = await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordChangedAt!.getTime()).toBeGreaterThanOrEqual(asked);
    await loginWithBearer(app, { ...user, password: NEW_PASSWORD });
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'auth.password_change', entityId: user.id },
      }),
    ).toMatchObject({ actorId: user.id, before: null, after: { sessionsRevoked: 1 } });
  });

  it('voids a reset link mailed before the change', async () => {
    const user = await createUser(app.prisma, { memberships: [] });
    const token = await requestLink(user);
    const session = await loginWithBearer(app, user);
    await app.graphql(
      CHANGE,
      { input: { currentPassword: user.password, newPassword: NEW_PASSWORD } },
      { bearer: session },
    );

    const response = await app.graphql(RESET, {
      input: { token, password: 'attacker passphrase' },
    });

    expect(errorOf(response.body).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.token',
    });
  });

  it.each([
    [
      'a wrong current password',
      'wrong password!',
      NEW_PASSWORD,
      'input.currentPassword',
      'is not your current password',
    ],
    [
      'a short new password',
      undefined,
      'short',
      'input.newPassword',
      'must be at least 12 characters',
    ],
    [
      'the current password again',
      undefined,
      undefined,
      'input.newPassword',
      'must differ from the current password',
    ],
  ])(
    'refuses %s naming its field, changing nothing',
    async (_case, currentPassword, newPassword, field, message) => {
      const user = await createUser(app.prisma, { memberships: [] });
      const current = await loginWithBearer(app, user);
      const other = await loginWithBearer(app, user);

      const response = await app.graphql(
        CHANGE,
        {
          input: {
            currentPassword: currentPassword ?? user.password,
            newPassword: newPassword ?? user.password,
          },
        },
        { bearer: current },
      );

      expect(errorOf(response.body)).toMatchObject({
        message,
        extensions: { code: 'BAD_USER_INPUT', field },
      });
      expect(await sessionWorks(other)).toBe(true);
      await loginWithBearer(app, user);
    },
  );

  it('needs a session', async () => {
    const response = await app.graphql(CHANGE, {
      input: { currentPassword: 'whatever it is', newPassword: NEW_PASSWORD },
    });

    expect(errorOf(response.body).extensions?.['code']).toBe('UNAUTHENTICATED');
  });
});
