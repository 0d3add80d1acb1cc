import { envFields } from '@sluice/config';
import { z } from 'zod';

export const envSchema = z.object({
  HOST: envFields.host(),
  DATA_PLANE_PORT: envFields.port(4100),
  REDIS_URL: envFields.redisUrl(),
  LOG_LEVEL: envFields.logLevel(),
  SLUICE_KEY_PREFIX: envFields.keyPrefix(),
});

export type Env = z.infer<typeof envSchema>;

/** Injection token of the validated environment. */
export const ENV = Symbol('ENV');
