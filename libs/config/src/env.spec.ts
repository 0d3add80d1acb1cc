import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvValidationError, envFields, parseEnv } from './env';

const schema = z.object({
  PORT: envFields.port(3000),
  REDIS_URL: envFields.redisUrl(),
  DATABASE_URL: envFields.databaseUrl(),
});

describe('parseEnv', () => {
  it('applies defaults and coerces numbers', () => {
    const env = parseEnv(schema, { DATABASE_URL: 'postgresql://localhost/x' });
    expect(env).toEqual({
      PORT: 3000,
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATABASE_URL: 'postgresql://localhost/x',
    });
  });

  it('names every bad variable', () => {
    let caught: unknown;
    try {
      parseEnv(schema, { PORT: 'eighty', REDIS_URL: 'http://x' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvValidationError);
    const variables = (caught as EnvValidationError).issues.map((i) => i.variable).sort();
    expect(variables).toEqual(['DATABASE_URL', 'PORT', 'REDIS_URL']);
    expect((caught as Error).message).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
  });
});
