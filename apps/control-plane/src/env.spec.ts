import { EnvValidationError, parseEnv } from '@sluice/config';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sluice';

describe('control-plane env', () => {
  it('applies the documented defaults', () => {
    expect(parseEnv(envSchema, { DATABASE_URL })).toEqual({
      HOST: '127.0.0.1',
      CONTROL_PLANE_PORT: 4000,
      DATABASE_URL,
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'info',
      SLUICE_KEY_PREFIX: 'sluice:',
    });
  });

  it('rejects a bad port, naming the variable', () => {
    expect(() => parseEnv(envSchema, { DATABASE_URL, CONTROL_PLANE_PORT: '70000' })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable: 'CONTROL_PLANE_PORT', message: expect.any(String) }],
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
