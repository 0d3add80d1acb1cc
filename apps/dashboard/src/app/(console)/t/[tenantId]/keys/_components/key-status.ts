export type KeyStatus = 'active' | 'expired' | 'revoked';

/**
 * A key's state as the data plane sees it: revoked wins (a revoked key stays refused whatever its
 * expiry), then expired from its expiry on, else active.
 */
export function keyStatus(
  key: { revokedAt?: string | null; expiresAt?: string | null },
  now: Date = new Date(),
): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= now.getTime()) return 'expired';
  return 'active';
}
