import { Injectable } from '@nestjs/common';
import { type AuthUser, isOperator } from '../auth/auth-user';
import { AppError } from '../graphql/app-error';

export type AccessAction = 'read' | 'write';

/**
 * Object-level checks every service makes before it reads or changes a row: operators may do
 * anything; a tenant admin reads and writes its own tenant; a tenant viewer only reads it; and
 * objects of no tenant (plans, the platform itself) are the operators' alone.
 */
@Injectable()
export class AccessService {
  can(user: AuthUser, action: AccessAction, tenantId?: string | null): boolean {
    if (isOperator(user)) return true;
    if (tenantId === undefined || tenantId === null) return false;
    const membership = user.memberships.find((m) => m.tenantId === tenantId);
    if (!membership) return false;
    return action === 'read' || membership.role === 'tenant_admin';
  }

  /** FORBIDDEN unless `can`. */
  assertCan(user: AuthUser, action: AccessAction, tenantId?: string | null): void {
    if (!this.can(user, action, tenantId)) {
      throw AppError.forbidden(
        action === 'read'
          ? 'You do not have access to this.'
          : 'Your role does not allow this change.',
      );
    }
  }

  /** The tenants whose rows `user` may list: undefined means every tenant (an operator). */
  readableTenantIds(user: AuthUser): string[] | undefined {
    if (isOperator(user)) return undefined;
    return user.memberships.flatMap((m) => (m.tenantId === null ? [] : [m.tenantId]));
  }
}
