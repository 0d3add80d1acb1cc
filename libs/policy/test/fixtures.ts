import type { TenantConfigInput } from '../src/index';

/** A tenant with one two-rule policy; `description` marks which publish a config came from. */
export function tenantInput(tenantId: string, description = ''): TenantConfigInput {
  return {
    tenantId,
    slug: 'acme',
    status: 'active',
    policies: [
      {
        id: `pol_${tenantId}`,
        name: 'api',
        description,
        rules: [
          // 0.1 + 0.2 has 17 significant digits: it survives only if the JSON is never re-encoded
          {
            name: 'per-second',
            algorithm: 'token_bucket',
            capacity: 20,
            refillPerSecond: 0.1 + 0.2,
          },
          { name: 'daily', algorithm: 'fixed_window', limit: 10_000, windowMs: 86_400_000 },
        ],
        overrides: [
          { id: 'ovr_1', identifier: 'premium_*', rules: { 'per-second': { capacity: 200 } } },
        ],
      },
    ],
  };
}
