import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, LOGIN, startTestApp, type TestApp, type TestUser } from './support/test-app';

const LOCKED = 'Too many login attempts. Try again in 15 minutes.';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({
    CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT: '3',
    CONTROL_PLANE_LOGIN_IP_LIMIT: '6',
    CONTROL_PLANE_LOGIN_WINDOW_SECONDS: '900',
  });
  user = await createUser(app.prisma);
});
afterEach(() => app.resetRedis());
afterAll(() => app?.close());

async function login(email: string, password: string) {
  const response = await app.graphql(LOGIN, { input: { email, password } });
  return response.body.errors?.[0] ?? { ok: true };
}

describe('login throttling', () => {
  it('locks an account after its limit of attempts, even for the right password', async () => {
    const firstAttempt = Date.now();
    for (let i = 0; i < 3; i++) {
      expect(await login(user.email, 'wrong password')).toMatchObject({
        extensions: { code: 'UNAUTHENTICATED' },
      });
    }

    const locked = await login(user.email, user.password);

    expect(locked).toEqual({
      message: LOCKED,
      locations: [{ line: 3, column: 5 }],
      path: ['login'],
      extensions: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: expect.any(Number) },
    });
    const retryAfter =
      'extensions' in locked ? Number(locked.extensions?.['retryAfterSeconds']) : 0;
    // until the first attempt leaves the 900 s window: less whatever the attempts took, however
    // slow the machine was (the message's "15 minutes" holds while they took under a minute,
    // well beyond this test's own timeout)
    const elapsedSeconds = Math.ceil((Date.now() - firstAttempt) / 1000);
    expect(retryAfter).toBeGreaterThanOrEqual(900 - elapsedSeconds);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // refused attempts are not checked, so not audited either
    expect(
      await app.prisma.auditLog.count({ where: { action: 'auth.login_failed', actorId: user.id } }),
    ).toBe(3);
    expect(await app.prisma.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it('locks an unknown email alike, so the answer does not tell whether the account exists', async () => {
    for (let i = 0; i < 3; i++) await login('ghost@example.com', 'guess');

    expect(await login('ghost@example.com', 'guess')).toMatchObject({
      message: LOCKED,
      extensions: { code: 'TOO_MANY_REQUESTS' },
    });
    // the account limit is per email: the real user is not affected
    expect(await login(user.email, user.password)).toEqual({ ok: true });
  });

  it('locks a client IP after its limit of attempts across accounts', async () => {
    for (let i = 0; i < 6; i++) await login(`visitor-${i}@example.com`, 'guess');

    expect(await login(user.email, user.password)).toMatchObject({
      message: LOCKED,
      extensions: { code: 'TOO_MANY_REQUESTS' },
    });
  });

  it('forgets an account’s failed attempts once it logs in', async () => {
    await login(user.email, 'typo 1');
    await login(user.email, 'typo 2');
    expect(await login(user.email, user.password)).toEqual({ ok: true });
    await login(user.email, 'typo 3');
    await login(user.email, 'typo 4');

    expect(await login(user.email, user.password)).toEqual({ ok: true });
  });
});

describe('the client address behind a proxy (the dashboard’s server)', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await startTestApp({
      CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT: '3',
      CONTROL_PLANE_LOGIN_IP_LIMIT: '6',
      CONTROL_PLANE_TRUSTED_PROXIES: 'loopback',
    });
  });
  afterAll(() => proxied?.close());

  const loginFrom = async (target: TestApp, ip: string, i: number) => {
    const response = await target.graphql(
      LOGIN,
      { input: { email: `visitor-${ip}-${i}@example.com`, password: 'guess' } },
      { headers: { 'x-forwarded-for': ip } },
    );
    return response.body.errors?.[0]?.extensions?.['code'];
  };

  it('counts each browser apart when the proxy is trusted', async () => {
    for (let i = 0; i < 6; i++)
      expect(await loginFrom(proxied, '203.0.113.7', i)).toBe('UNAUTHENTICATED');
    expect(await loginFrom(proxied, '203.0.113.7', 7)).toBe('TOO_MANY_REQUESTS');
    // another browser behind the same proxy is not locked out with it
    expect(await loginFrom(proxied, '203.0.113.8', 0)).toBe('UNAUTHENTICATED');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    for (let i = 0; i < 6; i++) await loginFrom(app, `198.51.100.${i}`, i);
    // every attempt counted against the peer's own address, whatever the header said
    expect(await loginFrom(app, '198.51.100.99', 0)).toBe('TOO_MANY_REQUESTS');
  });
});
