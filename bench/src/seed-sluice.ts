import type { Redis } from 'ioredis';

export interface SluiceSeed {
  /** The demo API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
}

/**
 * >>> SEAM FOR THE LEAD: fill in once @sluice/policy and the data plane exist. <<<
 *
 * Must write, under `prefix` (the data plane is started with SLUICE_KEY_PREFIX=prefix), a tenant
 * with a policy named POLICY ('bench', see ./workload) holding exactly one token-bucket rule of
 * BENCH_LIMIT (same limit as servers (c) and (d)), mode enforce, and an API key allowed on it,
 * using @sluice/policy's own functions; then return that key. Until then the runner reports (a)
 * as unavailable and runs (b), (c), (d).
 */
export function seedSluice(_redis: Redis, _prefix: string): Promise<SluiceSeed> {
  return Promise.reject(new Error('data plane not built yet'));
}
