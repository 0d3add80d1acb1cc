import type { Prisma } from '@sluice/db';

/**
 * Serialises changes to the memberships of one tenant (or to the operators, `null`) until the
 * transaction ends: "is this the last admin?" and the change that follows cannot interleave
 * with another such change (two admins demoting each other at once would leave none).
 */
export async function lockMemberships(
  tx: Prisma.TransactionClient,
  tenantId: string | null,
): Promise<void> {
  const scope = tenantId ?? 'operators';
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext('sluice:memberships'), hashtext(${scope}))`;
}
