import { EnvValidationError, parseEnv } from '@sluice/config';
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
    });
  });

  it('rejects a bad port, naming the variable', () => {
    expect(() => parseEnv(envSchema, { DATA_PLANE_PORT: 'http' })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable: 'DATA_PLANE_PORT', message: expect.any(String) }],
      }),
    );
  });
});
