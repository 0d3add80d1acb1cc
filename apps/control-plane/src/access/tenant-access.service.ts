import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient, Tenant } from '@sluice/db';
import type { AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { AppError } from '../graphql/app-error';
import { type AccessAction, AccessService } from './access.service';

/**
 * The tenant a request is about, checked: a tenant the caller may not even read answers as
 * missing (NOT_FOUND, so tenant ids reveal nothing), one it may read but not change FORBIDDEN.
 * A tenant being deleted is missing.
 */
@Injectable()
export class TenantAccessService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly access: AccessService,
  ) {}

  async tenant(user: AuthUser, tenantId: string, action: AccessAction): Promise<Tenant> {
    const tenant = await this.prisma.tenant.findFirst({ where: { id: tenantId, deletedAt: null } });
    this.check(user, tenant?.id, action);
    if (!tenant) throw AppError.notFound('No such tenant.');
    return tenant;
  }

  /** For a row of `tenantId` (undefined: the row does not exist); `missing` says what is. */
  check(
    user: AuthUser,
    tenantId: string | undefined,
    action: AccessAction,
    missing = 'No such tenant.',
  ): void {
    if (tenantId === undefined || !this.access.can(user, 'read', tenantId)) {
      throw AppError.notFound(missing);
    }
    this.access.assertCan(user, action, tenantId);
  }
}
