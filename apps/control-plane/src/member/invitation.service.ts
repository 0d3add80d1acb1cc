import { Inject, Injectable } from '@nestjs/common';
import {
  type Invitation as InvitationRow,
  newId,
  Prisma,
  type PrismaClient,
  type Role,
} from '@sluice/db';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { type AuthUser, isOperator } from '../auth/auth-user';
import { AuthService } from '../auth/auth.service';
import { emailSchema } from '../auth/email';
import { LoginThrottleService, throttledError } from '../auth/login-throttle.service';
import { type LoginPayload, SessionTransport } from '../auth/models/login.model';
import {
  hashPassword,
  MAX_PASSWORD_LENGTH,
  newPasswordSchema,
  verifyPassword,
} from '../auth/passwords';
import { hashToken, newSecretToken, secretTokenSchema } from '../auth/tokens';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import type { RequestMeta } from '../graphql/graphql-context';
import { parseInput, searchSchema } from '../graphql/input';
import { type Connection, type PageArgs, pageQuery, toConnection } from '../graphql/pagination';
import { MailService } from '../mail/mail.service';
import { lockMemberships } from './membership-lock';
import type {
  AcceptInvitationInput,
  Invitation,
  InvitationPreview,
  InviteMemberInput,
} from './models/invitation.model';

const ROLE_NAMES: Record<Role, string> = {
  operator: 'an operator of the platform',
  tenant_admin: 'an admin',
  tenant_viewer: 'a viewer',
};

const inviteSchema = z
  .object({
    email: emailSchema,
    role: z.enum(['operator', 'tenant_admin', 'tenant_viewer']),
    tenantId: z.string().min(1, 'is required').nullish(),
  })
  .superRefine((input, context) => {
    if (input.role === 'operator' && input.tenantId) {
      context.addIssue({
        code: 'custom',
        path: ['tenantId'],
        message: 'must be left out for OPERATOR (operators belong to no tenant)',
      });
    }
    if (input.role !== 'operator' && !input.tenantId) {
      context.addIssue({
        code: 'custom',
        path: ['tenantId'],
        message: 'is required for TENANT_ADMIN and TENANT_VIEWER',
      });
    }
  });

const acceptSchema = z.object({
  token: secretTokenSchema,
  name: z.string().nullish(),
  password: z
    .string()
    .min(1, 'is required')
    .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  transport: z.enum(SessionTransport),
});

const newAccountSchema = z.object({
  name: z
    .string({ error: 'is required for a new account' })
    .trim()
    .min(1, 'is required for a new account')
    .max(100, 'must be at most 100 characters'),
  password: newPasswordSchema,
});

type UsableInvitation = InvitationRow & { tenant: { name: string } | null };

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    tenantId: row.tenantId,
    expiresAt: row.expiresAt,
    createdById: row.createdById,
    createdAt: row.createdAt,
  };
}

/**
 * Invitations: a one-time link mailed to an address, offering a role in a tenant (or the
 * platform's OPERATOR role). Operators invite anyone anywhere; tenant admins only into their own
 * tenant. Accepting creates the account, or — when the address already has one — adds the
 * membership after checking that account's password (no separate login step), then signs in.
 */
@Injectable()
export class InvitationService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(ENV) private readonly env: Env,
    private readonly tenantAccess: TenantAccessService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly auth: AuthService,
    private readonly throttle: LoginThrottleService,
  ) {}

  /**
   * Records the invitation (replacing a pending one to the same address and tenant), then mails
   * the link. A mail that fails leaves the invitation pending and the mutation failed: inviting
   * again replaces it.
   */
  async invite(user: AuthUser, actor: AuditActor, input: InviteMemberInput): Promise<Invitation> {
    const { email, role, tenantId: givenTenant } = parseInput(inviteSchema, input, 'input');
    const tenantId = givenTenant ?? null;
    const tenant =
      tenantId === null ? null : await this.tenantAccess.tenant(user, tenantId, 'write');
    if (tenantId === null && !isOperator(user)) {
      throw AppError.forbidden('Only operators invite operators.');
    }

    const token = newSecretToken();
    const createdAt = new Date();
    const expiresAt = new Date(
      createdAt.getTime() + this.env.CONTROL_PLANE_INVITATION_TTL_SECONDS * 1000,
    );
    const invitation = await this.prisma.$transaction(async (tx) => {
      await lockMemberships(tx, tenantId);
      const member = await tx.membership.findFirst({
        where: { tenantId, user: { email } },
        select: { id: true },
      });
      if (member) {
        throw AppError.conflict(
          tenantId === null
            ? `${email} is already an operator.`
            : `${email} is already a member of this tenant; change their role instead.`,
          'input.email',
        );
      }
      const replaced = await tx.invitation.deleteMany({
        where: { email, tenantId, acceptedAt: null },
      });
      const created = await tx.invitation.create({
        data: {
          id: newId('invitation'),
          tenantId,
          email,
          role,
          tokenHash: hashToken(token),
          createdAt,
          expiresAt,
          createdById: user.id,
        },
      });
      await this.audit.record(tx, actor, {
        action: 'member.invite',
        entityType: 'Invitation',
        entityId: created.id,
        tenantId,
        after: {
          email,
          role,
          expiresAt: expiresAt.toISOString(),
          replacedPending: replaced.count,
        },
      });
      return created;
    });

    const where = tenant ? `the tenant ${tenant.name}` : 'Sluice';
    await this.mail.send({
      to: email,
      subject: tenant ? `You are invited to ${tenant.name} on Sluice` : 'You are invited to Sluice',
      text: [
        `${user.name || user.email} invited you to ${where} as ${ROLE_NAMES[role]}.`,
        `Accept here (the link works once, until ${expiresAt.toISOString()}):`,
        '',
        this.mail.link(`invite/${token}`),
      ].join('\n'),
    });
    return toInvitation(invitation);
  }

  /** Pending invitations of a tenant, or with `tenantId` null the operator invitations. */
  async pending(
    user: AuthUser,
    tenantId: string | null,
    page: PageArgs,
    search?: string | null,
  ): Promise<Connection<Invitation>> {
    const query = pageQuery(page);
    const text = parseInput(searchSchema, search, 'search');
    if (tenantId === null) {
      if (!isOperator(user)) throw AppError.forbidden('Only operators manage operators.');
    } else {
      await this.tenantAccess.tenant(user, tenantId, 'read');
    }
    const where: Prisma.InvitationWhereInput = {
      tenantId,
      acceptedAt: null,
      ...(text ? { email: { contains: text, mode: 'insensitive' } } : {}),
    };
    const [rows, totalCount] = await Promise.all([
      this.prisma.invitation.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: query.take,
        ...(query.after ? { cursor: { id: query.after }, skip: 1 } : {}),
      }),
      this.prisma.invitation.count({ where }),
    ]);
    return toConnection(rows.map(toInvitation), query, totalCount, (row) => row.id);
  }

  /** Deletes a pending invitation: its link stops working. */
  async revoke(user: AuthUser, actor: AuditActor, id: string): Promise<true> {
    await this.prisma.$transaction(async (tx) => {
      const row = await tx.invitation.findUnique({ where: { id } });
      const missing = 'No such invitation.';
      if (!row || row.acceptedAt) throw AppError.notFound(missing);
      if (row.tenantId === null) {
        if (!isOperator(user)) throw AppError.notFound(missing);
      } else {
        this.tenantAccess.check(user, row.tenantId, 'write', missing);
      }
      // only if still pending: an acceptance that got there first wins
      const { count } = await tx.invitation.deleteMany({ where: { id, acceptedAt: null } });
      if (count === 0) throw AppError.notFound(missing);
      await this.audit.record(tx, actor, {
        action: 'member.revoke_invitation',
        entityType: 'Invitation',
        entityId: row.id,
        tenantId: row.tenantId,
        before: { email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString() },
      });
    });
    return true;
  }

  /** What the link offers; anyone holding it may ask (the token is the proof). */
  async preview(token: string): Promise<InvitationPreview> {
    const invitation = await this.usable(parseInput(secretTokenSchema, token, 'token'), 'token');
    const account = await this.prisma.user.findUnique({
      where: { email: invitation.email },
      select: { id: true },
    });
    return {
      email: invitation.email,
      role: invitation.role,
      tenantId: invitation.tenantId,
      tenantName: invitation.tenant?.name ?? null,
      expiresAt: invitation.expiresAt,
      accountExists: account !== null,
    };
  }

  /** Uses the link up: creates the account or adds the membership, then starts a session. */
  async accept(
    input: AcceptInvitationInput,
    meta: RequestMeta,
    reply: FastifyReply | undefined,
  ): Promise<LoginPayload> {
    const { token, name, password, transport } = parseInput(acceptSchema, input, 'input');
    this.auth.checkTransport(transport, reply);
    const invitation = await this.usable(token, 'input.token');
    const { email, tenantId, role } = invitation;

    const existing = await this.prisma.user.findUnique({ where: { email } });
    let newAccount: { name: string; passwordHash: string } | undefined;
    if (existing) {
      // the password of an existing account is guessed here as at login: throttle alike
      const verdict = await this.throttle.attempt(email, meta.ip ?? 'unknown');
      if (!verdict.allowed) throw throttledError('login attempts', verdict.retryAfterMs);
      const matches = await verifyPassword(existing.passwordHash, password);
      if (!matches || existing.disabledAt) {
        throw AppError.unauthenticated(
          `${email} already has an account: enter its current password to accept.`,
        );
      }
      await this.throttle.forgetAccount(email);
    } else {
      const account = parseInput(newAccountSchema, { name, password }, 'input');
      newAccount = { name: account.name, passwordHash: await hashPassword(account.password) };
    }

    const userId = existing?.id ?? newId('user');
    const actor: AuditActor = {
      type: 'user',
      id: userId,
      requestId: meta.requestId,
      ip: meta.ip,
    };
    const { session, user } = await this.prisma
      .$transaction(async (tx) => {
        await lockMemberships(tx, tenantId);
        const now = new Date();
        // one use only, also against a concurrent acceptance of the same link
        const { count } = await tx.invitation.updateMany({
          where: { id: invitation.id, acceptedAt: null, expiresAt: { gt: now } },
          data: { acceptedAt: now },
        });
        if (count === 0) throw this.invalid('input.token', 'was already used');
        if (newAccount) {
          await tx.user.create({
            data: {
              id: userId,
              email,
              name: newAccount.name,
              passwordHash: newAccount.passwordHash,
              passwordChangedAt: now,
            },
          });
          await this.audit.record(tx, actor, {
            action: 'user.create',
            entityType: 'User',
            entityId: userId,
            after: { email, name: newAccount.name, invitationId: invitation.id },
          });
        } else if (await tx.membership.findFirst({ where: { userId, tenantId } })) {
          throw AppError.conflict(
            tenantId === null
              ? 'You are already an operator.'
              : 'You are already a member of this tenant.',
            'input.token',
          );
        }
        const membership = await tx.membership.create({
          data: { id: newId('membership'), userId, tenantId, role },
        });
        await this.audit.record(tx, actor, {
          action: 'member.accept_invitation',
          entityType: 'Invitation',
          entityId: invitation.id,
          tenantId,
          after: { userId, email, role, membershipId: membership.id, newAccount: !existing },
        });
        const session = await this.auth.startSession(tx, actor, userId, transport, meta);
        const user = await tx.user.findUniqueOrThrow({
          where: { id: userId },
          include: { memberships: { select: { tenantId: true, role: true } } },
        });
        return { session, user };
      })
      .catch((error: unknown) => {
        // the address got an account (another invitation) between the lookup and the insert
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          throw AppError.conflict(
            `${email} got an account meanwhile: open the link again to accept with its password.`,
            'input.token',
          );
        }
        throw error;
      });
    const authUser: AuthUser = {
      id: user.id,
      email: user.email,
      name: user.name,
      createdAt: user.createdAt,
      memberships: user.memberships,
    };
    return this.auth.deliverSession(authUser, session, transport, reply);
  }

  /** The invitation of `token` if it can still be accepted; BAD_USER_INPUT on `field` if not. */
  private async usable(token: string, field: string): Promise<UsableInvitation> {
    const invitation = await this.prisma.invitation.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { tenant: { select: { name: true, deletedAt: true } } },
    });
    if (!invitation || invitation.tenant?.deletedAt) {
      throw this.invalid(field, 'is not a valid invitation link');
    }
    if (invitation.acceptedAt) throw this.invalid(field, 'was already used');
    if (invitation.expiresAt.getTime() <= Date.now()) {
      throw this.invalid(field, 'has expired; ask for a new invitation');
    }
    return invitation;
  }

  private invalid(field: string, message: string): AppError {
    return AppError.badUserInput([{ field, message }]);
  }
}
