import type { PrismaClient } from '@sluice/db';

/** Whose actors may be named: every one (operators), or a tenant's members and keys. */
export type ActorScope = { allTenants: true } | { allTenants: false; tenantId: string };

interface ActorRef {
  actorType: string;
  actorId: string | null;
}

/**
 * The names of a page's actors, in two queries: users by email, API keys by name. Without
 * `allTenants` (a tenant role reading `tenantId`'s log), only that tenant's members and keys are
 * named: an operator's address is not the tenant's to read.
 */
export async function actorNames(
  prisma: PrismaClient,
  entries: readonly ActorRef[],
  scope: ActorScope,
): Promise<Map<string, string>> {
  const ids = (type: string) => [
    ...new Set(entries.flatMap((e) => (e.actorType === type && e.actorId ? [e.actorId] : []))),
  ];
  const userIds = ids('user');
  const keyIds = ids('api_key');
  const [users, keys] = await Promise.all([
    userIds.length === 0
      ? []
      : prisma.user.findMany({
          where: {
            id: { in: userIds },
            ...(!scope.allTenants && { memberships: { some: { tenantId: scope.tenantId } } }),
          },
          select: { id: true, email: true },
        }),
    keyIds.length === 0
      ? []
      : prisma.apiKey.findMany({
          where: { id: { in: keyIds }, ...(!scope.allTenants && { tenantId: scope.tenantId }) },
          select: { id: true, name: true },
        }),
  ]);
  return new Map([
    ...users.map((u): [string, string] => [u.id, u.email]),
    ...keys.map((k): [string, string] => [k.id, k.name]),
  ]);
}
