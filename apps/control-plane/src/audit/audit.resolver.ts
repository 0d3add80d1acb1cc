import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Prisma, PrismaClient } from '@sluice/db';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuthUser, isOperator } from '../auth/auth-user';
import { CurrentUser } from '../auth/decorators';
import { PRISMA } from '../database/prisma.token';
import { AppError } from '../graphql/app-error';
import { type ActorScope, actorNames } from './actor-names';
import { pageQuery, toConnection } from '../graphql/pagination';
import { AuditEntry, AuditEntryConnection, AuditLogArgs } from './models/audit-entry.model';

const json = (value: Prisma.JsonValue | null) => (value === null ? null : JSON.stringify(value));

@Resolver(() => AuditEntry)
export class AuditResolver {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly tenants: TenantAccessService,
  ) {}

  @Query(() => AuditEntryConnection, {
    description:
      "Newest first. Operators: every entry; tenant members: their tenant's (a deleted tenant's entries stay).",
  })
  async auditLog(@CurrentUser() user: AuthUser, @Args() args: AuditLogArgs) {
    // a tenant role sees the names of its own tenant's members and keys only
    let scope: ActorScope = { allTenants: true };
    if (!isOperator(user)) {
      if (!args.tenantId) {
        throw AppError.badUserInput([
          { field: 'tenantId', message: 'is required for tenant roles' },
        ]);
      }
      await this.tenants.tenant(user, args.tenantId, 'read');
      scope = { allTenants: false, tenantId: args.tenantId };
    }
    const query = pageQuery(args);
    let after: bigint | undefined;
    try {
      after = query.after === undefined ? undefined : BigInt(query.after);
    } catch {
      throw AppError.badUserInput([{ field: 'after', message: 'is not a cursor of this list' }]);
    }
    const action = args.action?.trim();
    const where: Prisma.AuditLogWhereInput = {
      ...(args.tenantId && { tenantId: args.tenantId }),
      ...(args.entityType && { entityType: args.entityType }),
      ...(args.entityId && { entityId: args.entityId }),
      ...(args.actorId && { actorId: args.actorId }),
      ...(action && (action.endsWith('.') ? { action: { startsWith: action } } : { action })),
      ...((args.from || args.to) && {
        at: { ...(args.from && { gte: args.from }), ...(args.to && { lt: args.to }) },
      }),
    };
    const [rows, total] = await Promise.all([
      this.prisma.auditLog.findMany({
        where: { ...where, ...(after !== undefined && { id: { lt: after } }) },
        orderBy: { id: 'desc' },
        take: query.take,
      }),
      this.prisma.auditLog.count({ where }),
    ]);
    const names = await actorNames(this.prisma, rows, scope);
    const entries = rows.map((row) => ({
      ...row,
      id: String(row.id),
      actorName: (row.actorId ? names.get(row.actorId) : undefined) ?? null,
      before: json(row.before),
      after: json(row.after),
    }));
    return toConnection(entries, query, total, (entry) => entry.id);
  }
}
