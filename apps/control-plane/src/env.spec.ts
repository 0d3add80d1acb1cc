import { EnvValidationError, parseEnv } from '@sluice/config';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sluice';

function issuesOf(env: Record<string, string>) {
  try {
    parseEnv(envSchema, { DATABASE_URL, ...env });
  } catch (error) {
    if (error instanceof EnvValidationError) return error.issues.map((issue) => issue.variable);
    throw error;
  }
  return [];
}

describe('control-plane env', () => {
  it('applies the documented defaults', () => {
    expect(parseEnv(envSchema, { DATABASE_URL })).toEqual({
      HOST: '127.0.0.1',
      CONTROL_PLANE_PORT: 4000,
      DATABASE_URL,
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'info',
      SLUICE_KEY_PREFIX: 'sluice:',
      CONTROL_PLANE_COOKIE_SECURE: true,
      CONTROL_PLANE_SESSION_IDLE_SECONDS: 43_200,
      CONTROL_PLANE_SESSION_ABSOLUTE_SECONDS: 604_800,
      CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT: 5,
      CONTROL_PLANE_LOGIN_IP_LIMIT: 20,
      CONTROL_PLANE_LOGIN_WINDOW_SECONDS: 900,
      CONTROL_PLANE_LINK_BASE_URL: 'http://127.0.0.1:3000',
      CONTROL_PLANE_RELAY_INTERVAL_MS: 1000,
      CONTROL_PLANE_RECONCILE_INTERVAL_MS: 5000,
      CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT: 10_000,
      CONTROL_PLANE_SUBSCRIPTIONS_PER_CONNECTION: 40,
      CONTROL_PLANE_SUBSCRIPTIONS_PER_USER: 100,
      CONTROL_PLANE_SUBSCRIPTION_RECHECK_MS: 2000,
      CONTROL_PLANE_MAIL_FROM: 'Sluice <no-reply@localhost>',
      CONTROL_PLANE_INVITATION_TTL_SECONDS: 604_800,
      CONTROL_PLANE_PASSWORD_RESET_TTL_SECONDS: 3600,
      SLUICE_WEBHOOK_ALLOWED_CIDRS: { allowedCidrs: [] },
    });
  });

  it('reads the webhook secrets key and allowed networks, naming bad ones', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    const env = parseEnv(envSchema, {
      DATABASE_URL,
      SLUICE_SECRETS_KEY: key,
      SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8',
    });
    expect(env.SLUICE_SECRETS_KEY?.toString('base64')).toBe(key);
    expect(env.SLUICE_WEBHOOK_ALLOWED_CIDRS.allowedCidrs).toHaveLength(1);
    expect(issuesOf({ SLUICE_SECRETS_KEY: 'too short' })).toEqual(['SLUICE_SECRETS_KEY']);
    expect(issuesOf({ SLUICE_WEBHOOK_ALLOWED_CIDRS: '10.0.0.0/33' })).toEqual([
      'SLUICE_WEBHOOK_ALLOWED_CIDRS',
    ]);
  });

  it('reads booleans and the optional mail and introspection settings', () => {
    expect(
      parseEnv(envSchema, {
        DATABASE_URL,
        CONTROL_PLANE_COOKIE_SECURE: 'false',
        CONTROL_PLANE_INTROSPECTION: 'true',
        SMTP_URL: 'smtps://user:secret@mail.example.com:465',
        CONTROL_PLANE_LINK_BASE_URL: 'https://sluice.example.com',
      }),
    ).toMatchObject({
      CONTROL_PLANE_COOKIE_SECURE: false,
      CONTROL_PLANE_INTROSPECTION: true,
      SMTP_URL: 'smtps://user:secret@mail.example.com:465',
      CONTROL_PLANE_LINK_BASE_URL: 'https://sluice.example.com',
    });
  });

  it('requires SMTP_URL in production, where links must not be logged', () => {
    expect(() => parseEnv(envSchema, { DATABASE_URL, NODE_ENV: 'production' })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [
          {
            variable: 'SMTP_URL',
            message: expect.stringMatching(/^must be set with NODE_ENV=production: .* log/),
          },
        ],
      }),
    );
    expect(issuesOf({ NODE_ENV: 'production', SMTP_URL: '' })).toEqual(['SMTP_URL']);
    expect(issuesOf({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:1025' })).toEqual([]);
    // development (any other NODE_ENV, or none) logs them
    expect(issuesOf({ NODE_ENV: 'development' })).toEqual([]);
    expect(issuesOf({})).toEqual([]);
  });

  it('takes an empty optional variable as unset', () => {
    const env = parseEnv(envSchema, {
      DATABASE_URL,
      SMTP_URL: '',
      CONTROL_PLANE_INTROSPECTION: '',
      NODE_ENV: '',
    });
    expect([env.SMTP_URL, env.CONTROL_PLANE_INTROSPECTION, env.NODE_ENV]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it.each([
    [{ CONTROL_PLANE_PORT: '70000' }, 'CONTROL_PLANE_PORT'],
    [{ CONTROL_PLANE_COOKIE_SECURE: 'maybe' }, 'CONTROL_PLANE_COOKIE_SECURE'],
    [{ CONTROL_PLANE_SESSION_IDLE_SECONDS: '10' }, 'CONTROL_PLANE_SESSION_IDLE_SECONDS'],
    [{ CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT: '0' }, 'CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT'],
    [{ CONTROL_PLANE_LOGIN_WINDOW_SECONDS: 'soon' }, 'CONTROL_PLANE_LOGIN_WINDOW_SECONDS'],
    [{ CONTROL_PLANE_LINK_BASE_URL: 'ftp://example.com' }, 'CONTROL_PLANE_LINK_BASE_URL'],
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ CONTROL_PLANE_INVITATION_TTL_SECONDS: '60' }, 'CONTROL_PLANE_INVITATION_TTL_SECONDS'],
    [
      { CONTROL_PLANE_PASSWORD_RESET_TTL_SECONDS: '1d' },
      'CONTROL_PLANE_PASSWORD_RESET_TTL_SECONDS',
    ],
    [
      {
        CONTROL_PLANE_SESSION_IDLE_SECONDS: '7200',
        CONTROL_PLANE_SESSION_ABSOLUTE_SECONDS: '3600',
      },
      'CONTROL_PLANE_SESSION_IDLE_SECONDS',
    ],
  ])('rejects %j, naming %s', (env, variable) => {
    expect(issuesOf(env)).toEqual([variable]);
  });

  it('requires DATABASE_URL', () => {
    expect(() => parseEnv(envSchema, {})).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable: 'DATABASE_URL', message: expect.any(String) }],
      }),
    );
  });
});
