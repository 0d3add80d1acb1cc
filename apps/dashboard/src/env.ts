import { envFields } from '@sluice/config';

export { loadEnv } from '@sluice/config';
import { z } from 'zod';

export const envSchema = z.object({
  HOST: envFields.host(),
  DASHBOARD_PORT: envFields.port(3000),
  CONTROL_PLANE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('http://127.0.0.1:4000'),
});

export type Env = z.infer<typeof envSchema>;
