import { compileTenant, generateApiKeySecret, publishTenant, putApiKey } from '@sluice/policy';
import type { Redis } from 'ioredis';
import { BENCH_LIMIT, POLICY } from './workload';

export interface SluiceSeed {
  /** The bench API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
}

const TENANT_ID = 'tnt_bench';

/**
 * Publishes, under `prefix` (the data plane runs with SLUICE_KEY_PREFIX=prefix), a tenant whose
 * policy POLICY holds exactly one token bucket of BENCH_LIMIT (the limit servers (c) and (d)
 * enforce), and an API key allowed on it, through @sluice/policy as the control plane would.
 */
export async function seedSluice(redis: Redis, prefix: string): Promise<SluiceSeed> {
  const tenant = compileTenant({
    tenantId: TENANT_ID,
    slug: 'bench',
    status: 'active',
    policies: [
      {
        id: 'pol_bench',
        name: POLICY,
        rules: [{ name: 'per-identifier', algorithm: 'token_bucket', ...BENCH_LIMIT }],
      },
    ],
  });
  await publishTenant(redis, prefix, tenant);
  const apiKey = generateApiKeySecret();
  await putApiKey(redis, prefix, apiKey, {
    id: 'key_bench',
    tenantId: TENANT_ID,
    policies: [POLICY],
    scopes: ['check'],
  });
  return { apiKey };
}
