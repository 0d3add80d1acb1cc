import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens';
import {
  createUser,
  LOGIN,
  loginWithBearer,
  loginWithCookie,
  type LoginResult,
  setCookies,
  startTestApp,
  type TestApp,
  type TestUser,
} from './support/test-app';

const ME = 'query { me { id email memberships { tenantId role } } }';
const LOGOUT = 'mutation { logout }';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  user = await createUser(app.prisma, { email: 'ada@example.com' });
});
afterEach(() => app.resetRedis());
afterAll(() => app?.close());

function errorOf(body: { errors?: { message: string; extensions?: Record<string, unknown> }[] }) {
  expect(body.errors).toHaveLength(1);
  return body.errors![0]!;
}

describe('login', () => {
  it('starts a cookie session: httpOnly SameSite=Lax session cookie, readable CSRF cookie', async () => {
    const response = await app.graphql<LoginResult>(
      LOGIN,
      { input: { email: '  Ada@Example.com ', password: user.password } },
      { headers: { 'x-request-id': 'req-login-1', 'user-agent': 'vitest' } },
    );

    expect(response.body.errors).toBeUndefined();
    const login = response.body.data!.login;
    expect(login.user).toEqual({
      id: user.id,
      email: 'ada@example.com',
      memberships: [{ tenantId: null, role: 'OPERATOR' }],
    });
    expect(login.token).toBeNull();
    const cookies = setCookies(response.headers);
    const session = cookies.get('sluice_session')!;
    const csrf = cookies.get('sluice_csrf')!;
    expect(session.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/']),
    );
    expect(session.attributes).not.toContain('Secure');
    expect(csrf.value).toBe(login.csrfToken);
    expect(csrf.attributes).toEqual(expect.arrayContaining(['SameSite=Lax', 'Path=/']));
    expect(csrf.attributes).not.toContain('HttpOnly');
    const expires = session.attributes
      .find((a) => a.startsWith('Expires='))!
      .slice('Expires='.length);
    expect(new Date(expires).getTime()).toBe(Math.floor(Date.parse(login.expiresAt) / 1000) * 1000);

    // only hashes are stored
    const stored = await app.prisma.session.findFirstOrThrow({
      where: { userId: user.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(stored.tokenHash).not.toContain(session.value);
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).toMatchObject({ ip: '127.0.0.1', userAgent: 'vitest', revokedAt: null });
    const audit = await app.prisma.auditLog.findFirstOrThrow({
      where: { action: 'auth.login', entityId: stored.id },
    });
    expect(audit).toMatchObject({
      actorType: 'user',
      actorId: user.id,
      entityType: 'Session',
      requestId: 'req-login-1',
      ip: '127.0.0.1',
    });

    const me = await app.graphql(ME, {}, { cookies: { sluice_session: session.value } });
    expect(me.body).toEqual({
      data: {
        me: { id: user.id, email: user.email, memberships: [{ tenantId: null, role: 'OPERATOR' }] },
      },
    });
  });

  it('returns a bearer token, and sets no cookie, for transport BEARER', async () => {
    const response = await app.graphql<LoginResult>(LOGIN, {
      input: { email: user.email, password: user.password, transport: 'BEARER' },
    });

    const login = response.body.data!.login;
    expect(login.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.csrfToken).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    const me = await app.graphql<{ me: { id: string } }>(ME, {}, { bearer: login.token! });
    expect(me.body.data?.me.id).toBe(user.id);
  });

  it('answers an unknown email and a wrong password alike, and audits both', async () => {
    const unknown = await app.graphql(LOGIN, {
      input: { email: 'nobody@example.com', password: user.password },
    });
    const wrong = await app.graphql(LOGIN, {
      input: { email: user.email, password: 'not the password' },
    });

    for (const response of [unknown, wrong]) {
      expect(response.status).toBe(200);
      expect(response.body.data).toBeNull();
      expect(errorOf(response.body)).toEqual({
        message: 'Invalid email or password.',
        locations: [{ line: 3, column: 5 }],
        path: ['login'],
        extensions: { code: 'UNAUTHENTICATED' },
      });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    const failures = await app.prisma.auditLog.findMany({
      where: { action: 'auth.login_failed' },
      orderBy: { id: 'asc' },
    });
    expect(failures.map((f) => [f.actorId, f.entityId, f.after])).toEqual([
      [null, 'unknown', { email: 'nobody@example.com', reason: 'unknown-account' }],
      [user.id, user.id, { email: user.email, reason: 'wrong-password' }],
    ]);
  });

  it('refuses a disabled user with the same answer', async () => {
    const disabled = await createUser(app.prisma);
    await app.prisma.user.update({ where: { id: disabled.id }, data: { disabledAt: new Date() } });

    const response = await app.graphql(LOGIN, {
      input: { email: disabled.email, password: disabled.password },
    });

    expect(errorOf(response.body)).toMatchObject({
      message: 'Invalid email or password.',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('names the field of a malformed email', async () => {
    const response = await app.graphql(LOGIN, { input: { email: 'not-an-email', password: 'x' } });

    expect(errorOf(response.body)).toMatchObject({
      message: 'must be an email address',
      extensions: {
        code: 'BAD_USER_INPUT',
        field: 'input.email',
        issues: [{ field: 'input.email', message: 'must be an email address' }],
      },
    });
  });
});

describe('sessions', () => {
  it('needs one for every resolver that is not public', async () => {
    const response = await app.graphql(ME);

    expect(errorOf(response.body)).toEqual({
      message: 'Log in to continue.',
      locations: [{ line: 1, column: 9 }],
      path: ['me'],
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('requires the CSRF header for mutations authenticated by cookie, not for queries', async () => {
    const { cookies, csrf } = await loginWithCookie(app, user);

    expect((await app.graphql(ME, {}, { cookies })).body.errors).toBeUndefined();
    for (const credentials of [{ cookies }, { cookies, csrf: 'a'.repeat(43) }]) {
      const refused = await app.graphql(LOGOUT, {}, credentials);
      expect(errorOf(refused.body)).toMatchObject({
        message: expect.stringContaining('CSRF'),
        extensions: { code: 'FORBIDDEN' },
      });
    }
    const accepted = await app.graphql(LOGOUT, {}, { cookies, csrf });
    expect(accepted.body).toEqual({ data: { logout: true } });
  });

  it('takes bearer-authenticated mutations without a CSRF header', async () => {
    const token = await loginWithBearer(app, user);

    expect((await app.graphql(LOGOUT, {}, { bearer: token })).body).toEqual({
      data: { logout: true },
    });
  });

  it('revokes the session on logout, clears the cookies and audits it', async () => {
    const { cookies, csrf, sessionToken } = await loginWithCookie(app, user);

    const response = await app.graphql(LOGOUT, {}, { cookies, csrf });

    expect(response.body).toEqual({ data: { logout: true } });
    const cleared = setCookies(response.headers);
    for (const name of ['sluice_session', 'sluice_csrf']) {
      expect(cleared.get(name)?.value).toBe('');
      expect(cleared.get(name)?.attributes).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    }
    const after = await app.graphql(ME, {}, { cookies: { sluice_session: sessionToken } });
    expect(errorOf(after.body)).toMatchObject({
      message: 'Your session has expired or was ended. Log in again.',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const session = await app.prisma.session.findFirstOrThrow({
      where: { revokedAt: { not: null } },
      orderBy: { revokedAt: 'desc' },
    });
    expect(
      await app.prisma.auditLog.count({
        where: { action: 'auth.logout', entityId: session.id, actorId: user.id },
      }),
    ).toBe(1);
  });

  it('refuses a session past its absolute lifetime or left idle too long', async () => {
    const expired = await loginWithBearer(app, user);
    const idle = await loginWithBearer(app, user);
    // age the rows the way the clock would
    await app.prisma.session.update({
      where: { tokenHash: hashToken(expired) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await app.prisma.session.update({
      where: { tokenHash: hashToken(idle) },
      data: { lastSeenAt: new Date(Date.now() - 12 * 3600 * 1000 - 1000) },
    });

    for (const token of [expired, idle]) {
      const response = await app.graphql(ME, {}, { bearer: token });
      expect(errorOf(response.body)).toMatchObject({
        message: 'Your session has expired or was ended. Log in again.',
        extensions: { code: 'UNAUTHENTICATED' },
      });
    }
  });

  it('records use of a session at most once a minute', async () => {
    const token = await loginWithBearer(app, user);
    const longAgo = new Date(Date.now() - 11 * 3600 * 1000);
    await app.prisma.session.update({
      where: { tokenHash: hashToken(token) },
      data: { lastSeenAt: longAgo },
    });

    expect((await app.graphql(ME, {}, { bearer: token })).body.errors).toBeUndefined();

    const row = await app.prisma.session.findUniqueOrThrow({
      where: { tokenHash: hashToken(token) },
    });
    expect(row.lastSeenAt.getTime()).toBeGreaterThan(longAgo.getTime() + 3600 * 1000);
  });

  it('refuses a malformed Authorization header instead of ignoring it', async () => {
    const response = await app.graphql(ME, {}, { headers: { authorization: 'Basic abc' } });

    expect(errorOf(response.body)).toMatchObject({
      message: 'Your session has expired or was ended. Log in again.',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });
});

describe('cookie Secure flag', () => {
  it('is set by default', async () => {
    const secure = await startTestApp({ CONTROL_PLANE_COOKIE_SECURE: 'true' });
    try {
      const operator = await createUser(secure.prisma);
      const response = await secure.graphql(LOGIN, {
        input: { email: operator.email, password: operator.password },
      });
      const cookies = setCookies(response.headers);
      expect(cookies.get('sluice_session')?.attributes).toContain('Secure');
      expect(cookies.get('sluice_csrf')?.attributes).toContain('Secure');
    } finally {
      await secure.close();
    }
  });
});
