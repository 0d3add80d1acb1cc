import { EnvValidationError, parseEnv } from '@sluice/config';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env';

describe('data-plane env', () => {
  it('applies the documented defaults', () => {
    expect(parseEnv(envSchema, {})).toEqual({
      HOST: '127.0.0.1',
      DATA_PLANE_PORT: 4100,
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'info',
      SLUICE_KEY_PREFIX: 'sluice:',
      DATA_PLANE_KEY_RECHECK_MS: 1000,
      DATA_PLANE_TENANT_RECHECK_MS: 2000,
      DATA_PLANE_NEGATIVE_KEY_TTL_MS: 1000,
      DATA_PLANE_MAX_CACHED_KEYS: 10_000,
      DATA_PLANE_MAX_CACHED_UNKNOWN_KEYS: 1000,
      DATA_PLANE_CACHE_IDLE_MS: 300_000,
      DATA_PLANE_BREAKER_FAILURES: 5,
      DATA_PLANE_BREAKER_OPEN_MS: 500,
      DATA_PLANE_LOCAL_MAX_KEYS: 100_000,
      DATA_PLANE_USAGE_FLUSH_MS: 1000,
      DATA_PLANE_USAGE_RETENTION_SECONDS: 900,
      DATA_PLANE_USAGE_TOP_K: 100,
      DATA_PLANE_USAGE_MAX_PENDING: 100_000,
      DATA_PLANE_DECISION_LOG_MAX_LEN: 10_000,
      DATA_PLANE_DECISION_LOG_ALLOW_SAMPLE_RATE: 0.01,
      DATA_PLANE_HEARTBEAT_MS: 5000,
    });
  });

  it('reads numbers from their text', () => {
    expect(
      parseEnv(envSchema, {
        DATA_PLANE_KEY_RECHECK_MS: '250',
        DATA_PLANE_DECISION_LOG_ALLOW_SAMPLE_RATE: '0.5',
      }),
    ).toMatchObject({
      DATA_PLANE_KEY_RECHECK_MS: 250,
      DATA_PLANE_DECISION_LOG_ALLOW_SAMPLE_RATE: 0.5,
    });
  });

  it.each([
    ['DATA_PLANE_PORT', 'http'],
    ['DATA_PLANE_NEGATIVE_KEY_TTL_MS', '5000'],
    ['DATA_PLANE_DECISION_LOG_ALLOW_SAMPLE_RATE', '2'],
    ['DATA_PLANE_BREAKER_FAILURES', '0'],
    ['DATA_PLANE_USAGE_FLUSH_MS', '1.5'],
  ])('rejects %s=%s, naming the variable', (variable, value) => {
    expect(() => parseEnv(envSchema, { [variable]: value })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable, message: expect.any(String) }],
      }),
    );
  });

  it('documents every variable in .env.example with its default', () => {
    const example = readFileSync(path.join(__dirname, '../../../.env.example'), 'utf8');
    const defaults: Record<string, unknown> = parseEnv(envSchema, {});
    for (const variable of Object.keys(envSchema.shape)) {
      const documented = new RegExp(`^# ${variable}=(.*)$`, 'm').exec(example)?.[1];
      expect(documented, variable).toBe(String(defaults[variable]));
    }
  });
});
