import { Inject, Injectable } from '@nestjs/common';
import type { Prisma, PrismaClient } from '@sluice/db';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { type AuthUser, isOperator } from '../auth/auth-user';
import type { User } from '../auth/models/user.model';
import { PRISMA } from '../database/prisma.token';
import { AppError } from '../graphql/app-error';
import { parseInput, searchSchema } from '../graphql/input';
import { type Connection, type PageArgs, pageQuery, toConnection } from '../graphql/pagination';
import { lockMemberships } from './membership-lock';
import { SessionService } from '../auth/session.service';
import type {
  ChangeMemberRoleInput,
  Member,
  UpdateProfileInput,
  UserFilter,
} from './models/member.model';

const memberInclude = { user: { select: { email: true, name: true } } } as const;
type MembershipRow = Prisma.MembershipGetPayload<{ include: typeof memberInclude }>;

const idSchema = z.string().min(1, 'is required');

const changeRoleSchema = z.object({
  userId: idSchema,
  tenantId: idSchema,
  role: z.enum(['tenant_admin', 'tenant_viewer'], {
    error: 'must be TENANT_ADMIN or TENANT_VIEWER (operators are invited, not promoted)',
  }),
});

const userFilterSchema = z.object({ search: searchSchema });

const profileSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
});

const userInclude = { memberships: { select: { tenantId: true, role: true } } } as const;

function toUser(row: Prisma.UserGetPayload<{ include: typeof userInclude }>): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    createdAt: row.createdAt,
    disabledAt: row.disabledAt,
    memberships: row.memberships,
  };
}

function toMember(row: MembershipRow): Member {
  return {
    id: row.id,
    userId: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: row.role,
    tenantId: row.tenantId,
    since: row.createdAt,
  };
}

/** What the audit log keeps of a membership. */
function auditView(row: MembershipRow) {
  return { userId: row.userId, email: row.user.email, role: row.role };
}

/**
 * Members of tenants and the platform's operators. A tenant keeps at least one TENANT_ADMIN and
 * the platform at least one OPERATOR (CONFLICT otherwise). Access: a tenant's members read its
 * members, its admins change them, operators do both everywhere and alone manage operators; a
 * tenant the caller may not read is NOT_FOUND (TenantAccessService, as everywhere).
 */
@Injectable()
export class MemberService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly tenantAccess: TenantAccessService,
    private readonly audit: AuditService,
    private readonly sessions: SessionService,
  ) {}

  /** The tenant's members, oldest membership first; `search`: in their names or emails. */
  async members(
    user: AuthUser,
    tenantId: string,
    page: PageArgs,
    search?: string | null,
  ): Promise<Connection<Member>> {
    const query = pageQuery(page);
    const text = parseInput(searchSchema, search, 'search');
    await this.tenantAccess.tenant(user, tenantId, 'read');
    return this.memberPage(
      {
        tenantId,
        ...(text
          ? {
              user: {
                OR: [
                  { email: { contains: text, mode: 'insensitive' } },
                  { name: { contains: text, mode: 'insensitive' } },
                ],
              },
            }
          : {}),
      },
      query,
    );
  }

  /** The platform's operators (the caller is one: the resolver says so). */
  operators(page: PageArgs): Promise<Connection<Member>> {
    return this.memberPage({ tenantId: null, role: 'operator' }, pageQuery(page));
  }

  /** Every user, by email (the caller is an operator: the resolver says so). */
  async users(filter: UserFilter | null | undefined, page: PageArgs): Promise<Connection<User>> {
    const query = pageQuery(page);
    const { search } = parseInput(userFilterSchema, filter ?? {}, 'filter');
    const where: Prisma.UserWhereInput = search
      ? {
          OR: [
            { email: { contains: search, mode: 'insensitive' } },
            { name: { contains: search, mode: 'insensitive' } },
          ],
        }
      : {};
    const [rows, totalCount] = await Promise.all([
      this.prisma.user.findMany({
        where,
        orderBy: { email: 'asc' },
        take: query.take,
        ...(query.after ? { cursor: { id: query.after }, skip: 1 } : {}),
        include: userInclude,
      }),
      this.prisma.user.count({ where }),
    ]);
    const users: User[] = rows.map(toUser);
    return toConnection(users, query, totalCount, (row) => row.id);
  }

  /** The caller's own name. */
  async updateProfile(user: AuthUser, actor: AuditActor, input: UpdateProfileInput): Promise<User> {
    const { name } = parseInput(profileSchema, input, 'input');
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.user.update({
        where: { id: user.id },
        data: { name },
        include: userInclude,
      });
      await this.audit.record(tx, actor, {
        action: 'user.update',
        entityType: 'User',
        entityId: user.id,
        before: { name: user.name },
        after: { name },
      });
      return toUser(row);
    });
  }

  /**
   * Disables an account (it cannot log in, its sessions end, its reset links stop working) or
   * enables it again. Operators only, never their own (so an enabled operator always remains).
   */
  async setDisabled(
    user: AuthUser,
    actor: AuditActor,
    userId: string,
    disabled: boolean,
  ): Promise<User> {
    if (userId === user.id) {
      throw AppError.conflict('You cannot disable or enable your own account.', 'id');
    }
    return this.prisma.$transaction(async (tx) => {
      const before = await tx.user.findUnique({ where: { id: userId }, include: userInclude });
      if (!before) throw AppError.notFound('No such user.');
      if (disabled === (before.disabledAt !== null)) return toUser(before);
      const row = await tx.user.update({
        where: { id: userId },
        data: { disabledAt: disabled ? new Date() : null },
        include: userInclude,
      });
      if (disabled) await this.sessions.revokeAllOf(tx, userId);
      await this.audit.record(tx, actor, {
        action: disabled ? 'user.disable' : 'user.enable',
        entityType: 'User',
        entityId: userId,
        before: { disabledAt: before.disabledAt?.toISOString() ?? null },
        after: { disabledAt: row.disabledAt?.toISOString() ?? null },
      });
      return toUser(row);
    });
  }

  async changeRole(
    user: AuthUser,
    actor: AuditActor,
    input: ChangeMemberRoleInput,
  ): Promise<Member> {
    const { userId, tenantId, role } = parseInput(changeRoleSchema, input, 'input');
    await this.tenantAccess.tenant(user, tenantId, 'write');
    const row = await this.prisma.$transaction(async (tx) => {
      await lockMemberships(tx, tenantId);
      const before = await this.membership(tx, userId, tenantId);
      if (before.role === role) return before;
      if (before.role === 'tenant_admin' && (await this.admins(tx, tenantId)) === 1) {
        throw AppError.conflict(
          'A tenant needs at least one TENANT_ADMIN: make someone else admin first.',
          'input.role',
        );
      }
      const after = await tx.membership.update({
        where: { id: before.id },
        data: { role },
        include: memberInclude,
      });
      await this.audit.record(tx, actor, {
        action: 'member.change_role',
        entityType: 'Membership',
        entityId: after.id,
        tenantId,
        before: auditView(before),
        after: auditView(after),
      });
      return after;
    });
    return toMember(row);
  }

  /** Removes a tenant membership, or with `tenantId` null an operator's (operators only). */
  async remove(
    user: AuthUser,
    actor: AuditActor,
    userId: string,
    tenantId: string | null,
  ): Promise<true> {
    if (tenantId === null) {
      if (!isOperator(user)) throw AppError.forbidden('Only operators manage operators.');
    } else {
      await this.tenantAccess.tenant(user, tenantId, 'write');
    }
    await this.prisma.$transaction(async (tx) => {
      await lockMemberships(tx, tenantId);
      const before = await this.membership(tx, userId, tenantId);
      if (before.role === 'operator' && (await this.operatorCount(tx)) === 1) {
        throw AppError.conflict('The platform needs at least one operator.', 'userId');
      }
      if (
        before.role === 'tenant_admin' &&
        tenantId !== null &&
        (await this.admins(tx, tenantId)) === 1
      ) {
        throw AppError.conflict(
          'A tenant needs at least one TENANT_ADMIN: make someone else admin first.',
          'userId',
        );
      }
      await tx.membership.delete({ where: { id: before.id } });
      await this.audit.record(tx, actor, {
        action: 'member.remove',
        entityType: 'Membership',
        entityId: before.id,
        tenantId,
        before: auditView(before),
      });
    });
    return true;
  }

  private async memberPage(
    where: Prisma.MembershipWhereInput,
    query: ReturnType<typeof pageQuery>,
  ): Promise<Connection<Member>> {
    const [rows, totalCount] = await Promise.all([
      this.prisma.membership.findMany({
        where,
        include: memberInclude,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: query.take,
        ...(query.after ? { cursor: { id: query.after }, skip: 1 } : {}),
      }),
      this.prisma.membership.count({ where }),
    ]);
    return toConnection(rows.map(toMember), query, totalCount, (member) => member.id);
  }

  private async membership(
    tx: Prisma.TransactionClient,
    userId: string,
    tenantId: string | null,
  ): Promise<MembershipRow> {
    const row = await tx.membership.findFirst({
      where: { userId, tenantId },
      include: memberInclude,
    });
    if (!row) {
      throw AppError.notFound(
        tenantId === null
          ? `User ${userId} is not an operator.`
          : `User ${userId} is not a member of tenant ${tenantId}.`,
      );
    }
    return row;
  }

  private admins(tx: Prisma.TransactionClient, tenantId: string): Promise<number> {
    return tx.membership.count({ where: { tenantId, role: 'tenant_admin' } });
  }

  private operatorCount(tx: Prisma.TransactionClient): Promise<number> {
    return tx.membership.count({ where: { tenantId: null, role: 'operator' } });
  }
}
