import { EnvValidationError, parseEnv } from '@sluice/config';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env';

describe('dashboard env', () => {
  it('applies the documented defaults', () => {
    expect(parseEnv(envSchema, {})).toEqual({
      HOST: '127.0.0.1',
      DASHBOARD_PORT: 3000,
      CONTROL_PLANE_URL: 'http://127.0.0.1:4000',
    });
  });

  it('rejects a control-plane URL that is not http(s), naming the variable', () => {
    expect(() => parseEnv(envSchema, { CONTROL_PLANE_URL: 'ftp://control-plane' })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable: 'CONTROL_PLANE_URL', message: 'must be an http:// or https:// URL' }],
      }),
    );
  });

  it('rejects a bad port, naming the variable', () => {
    expect(() => parseEnv(envSchema, { DASHBOARD_PORT: '-1' })).toThrow(
      expect.objectContaining({
        constructor: EnvValidationError,
        issues: [{ variable: 'DASHBOARD_PORT', message: expect.any(String) }],
      }),
    );
  });
});
