import { Inject } from '@nestjs/common';
import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { PrismaClient } from '@sluice/db';
import { Membership } from '../auth/models/user.model';
import { PRISMA } from '../database/prisma.token';
import type { GraphqlContext } from '../graphql/graphql-context';

/**
 * A membership's tenant by name, for lists of users. Memberships are only ever shown to their
 * user or to an operator (`me`, `users`, …), who may both read the tenant's name.
 */
@Resolver(() => Membership)
export class MembershipResolver {
  /** Per operation: a list of users in the same tenants looks each tenant up once. */
  private readonly names = new WeakMap<GraphqlContext, Map<string, Promise<string | null>>>();

  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  @ResolveField(() => String, {
    nullable: true,
    description: "The tenant's name; null for OPERATOR, or a tenant being deleted.",
  })
  tenantName(@Parent() membership: Membership, @Context() context: GraphqlContext) {
    const { tenantId } = membership;
    if (tenantId === null) return null;
    let names = this.names.get(context);
    if (!names) this.names.set(context, (names = new Map()));
    let name = names.get(tenantId);
    if (!name) {
      name = this.prisma.tenant
        .findFirst({ where: { id: tenantId, deletedAt: null }, select: { name: true } })
        .then((tenant) => tenant?.name ?? null);
      names.set(tenantId, name);
    }
    return name;
  }
}
