import { EnvValidationError, parseEnv } from '@sluice/config';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sluice';

describe('worker env', () => {
  it('applies the documented defaults', () => {
    expect(parseEnv(envSchema, { DATABASE_URL })).toEqual({
      HOST: '127.0.0.1',
      WORKER_PORT: 4200,
      DATABASE_URL,
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'info',
      SLUICE_KEY_PREFIX: 'sluice:',
      WORKER_HEARTBEAT_MS: 5000,
      WORKER_USAGE_ROLLUP_INTERVAL_MS: 15_000,
      WORKER_USAGE_ROLLUP_GRACE_SECONDS: 5,
      WORKER_USAGE_ROLLUP_LOOKBACK_SECONDS: 900,
      WORKER_USAGE_RETENTION_DAYS: 90,
      SLUICE_WEBHOOK_ALLOWED_CIDRS: { allowedCidrs: [] },
      WORKER_WEBHOOK_CONCURRENCY: 64,
      WORKER_WEBHOOK_TIMEOUT_MS: 10_000,
      WORKER_WEBHOOK_MAX_IN_FLIGHT: 8,
      WORKER_WEBHOOK_BACKOFF_BASE_MS: 2000,
      WORKER_WEBHOOK_BACKOFF_MAX_MS: 3_600_000,
      WORKER_WEBHOOK_FAILURE_THRESHOLD: 5,
      WORKER_WEBHOOK_LOCK_MS: 30_000,
      WORKER_WEBHOOK_STALLED_INTERVAL_MS: 30_000,
      WORKER_WEBHOOK_DEAD_LETTER_DAYS: 30,
      WORKER_ALERTS_RECLAIM_MS: 60_000,
    });
  });

  it('reads the webhook secrets key and allowed networks, and names bad ones', () => {
    const key = Buffer.alloc(32, 7);
    const env = parseEnv(envSchema, {
      DATABASE_URL,
      SLUICE_SECRETS_KEY: key.toString('base64'),
      SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8, ::1',
    });
    expect(env.SLUICE_SECRETS_KEY?.equals(key)).toBe(true);
    expect(env.SLUICE_WEBHOOK_ALLOWED_CIDRS.allowedCidrs).toHaveLength(2);
    for (const [variable, value] of [
      ['SLUICE_SECRETS_KEY', 'c2hvcnQ='],
      ['SLUICE_WEBHOOK_ALLOWED_CIDRS', '10.0.0.0/8, intranet'],
      ['WORKER_WEBHOOK_CONCURRENCY', '0'],
    ] as const) {
      expect(() => parseEnv(envSchema, { DATABASE_URL, [variable]: value })).toThrow(
        expect.objectContaining({
          constructor: EnvValidationError,
          issues: [{ variable, message: expect.any(String) }],
        }),
      );
    }
  });

  it('reads the usage roll-up settings and rejects out-of-range ones, naming them', () => {
    expect(
      parseEnv(envSchema, {
        DATABASE_URL,
        WORKER_USAGE_ROLLUP_INTERVAL_MS: '30000',
        WORKER_USAGE_RETENTION_DAYS: '30',
      }),
    ).toMatchObject({ WORKER_USAGE_ROLLUP_INTERVAL_MS: 30_000, WORKER_USAGE_RETENTION_DAYS: 30 });
    for (const [variable, value] of [
      ['WORKER_USAGE_ROLLUP_INTERVAL_MS', '999'],
      ['WORKER_USAGE_ROLLUP_GRACE_SECONDS', '-1'],
      ['WORKER_USAGE_ROLLUP_LOOKBACK_SECONDS', '59'],
      ['WORKER_USAGE_RETENTION_DAYS', '0.5'],
    ] as const) {
      expect(() => parseEnv(envSchema, { DATABASE_URL, [variable]: value })).toThrow(
        expect.objectContaining({
          constructor: EnvValidationError,
          issues: [{ variable, message: expect.any(String) }],
        }),
      );
    }
  });

  it('reads how long an unacknowledged threshold alert waits before another worker takes it', () => {
    expect(
      parseEnv(envSchema, { DATABASE_URL, WORKER_ALERTS_RECLAIM_MS: '5000' })
        .WORKER_ALERTS_RECLAIM_MS,
    ).toBe(5000);
    expect(() => parseEnv(envSchema, { DATABASE_URL, WORKER_ALERTS_RECLAIM_MS: '999' })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable: 'WORKER_ALERTS_RECLAIM_MS', message: expect.any(String) }],
      }),
    );
  });

  it('rejects a bad port, naming the variable', () => {
    expect(() => parseEnv(envSchema, { DATABASE_URL, WORKER_PORT: '0' })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable: 'WORKER_PORT', message: expect.any(String) }],
      }),
    );
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
