import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId, type PrismaClient } from '@sluice/db';
import { z } from 'zod';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import type { RequestMeta } from '../graphql/graphql-context';
import { parseInput } from '../graphql/input';
import { MailService } from '../mail/mail.service';
import type { Authentication } from './auth-user';
import { emailSchema } from './email';
import { LoginThrottleService, throttledError } from './login-throttle.service';
import type { ChangePasswordInput, ResetPasswordInput } from './models/password.model';
import { hashPassword, MAX_PASSWORD_LENGTH, newPasswordSchema, verifyPassword } from './passwords';
import { SessionService } from './session.service';
import { hashToken, newSecretToken, secretTokenSchema } from './tokens';

const resetSchema = z.object({ token: secretTokenSchema, password: newPasswordSchema });

const changeSchema = z.object({
  currentPassword: z
    .string()
    .min(1, 'is required')
    .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  newPassword: newPasswordSchema,
});

function invalidLink(message: string): AppError {
  return AppError.badUserInput([{ field: 'input.token', message }]);
}

/** Password reset by a mailed one-time link, and password change by the signed-in user. */
@Injectable()
export class PasswordService {
  private readonly logger = new Logger(PasswordService.name);

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(ENV) private readonly env: Env,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottleService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
  ) {}

  /**
   * Mails a reset link to `email` if it names an enabled user; answers the same either way. Only
   * the newest link of a user works. Throttled per address and per IP like login (counted apart).
   */
  async requestReset(email: string, meta: RequestMeta): Promise<true> {
    const address = parseInput(emailSchema, email, 'email');
    const verdict = await this.throttle.attempt(address, meta.ip ?? 'unknown', 'password-reset');
    if (!verdict.allowed) throw throttledError('password reset requests', verdict.retryAfterMs);

    const user = await this.prisma.user.findUnique({
      where: { email: address },
      select: { id: true, disabledAt: true },
    });
    const actor: AuditActor = { type: 'user', id: null, requestId: meta.requestId, ip: meta.ip };
    if (!user || user.disabledAt) {
      await this.audit.record(this.prisma, actor, {
        action: 'auth.password_reset_requested',
        entityType: 'User',
        entityId: user?.id ?? 'unknown',
        after: { email: address, outcome: user ? 'disabled' : 'unknown-account' },
      });
      return true;
    }

    const token = newSecretToken();
    const createdAt = new Date();
    const expiresAt = new Date(
      createdAt.getTime() + this.env.CONTROL_PLANE_PASSWORD_RESET_TTL_SECONDS * 1000,
    );
    await this.prisma.$transaction(async (tx) => {
      await tx.passwordResetToken.deleteMany({ where: { userId: user.id, usedAt: null } });
      const row = await tx.passwordResetToken.create({
        data: {
          id: newId('passwordResetToken'),
          userId: user.id,
          tokenHash: hashToken(token),
          createdAt,
          expiresAt,
        },
      });
      await this.audit.record(tx, actor, {
        action: 'auth.password_reset_requested',
        entityType: 'User',
        entityId: user.id,
        after: {
          email: address,
          outcome: 'sent',
          tokenId: row.id,
          expiresAt: expiresAt.toISOString(),
        },
      });
    });
    // Not awaited: waiting for the SMTP server would make the answer slower exactly when the
    // account exists. A failure is logged; the user can ask again.
    this.mail
      .send({
        to: address,
        subject: 'Reset your Sluice password',
        text: [
          'Someone (hopefully you) asked to reset the password of your Sluice account.',
          `Choose a new password here (the link works once, until ${expiresAt.toISOString()}):`,
          '',
          this.mail.link(`reset-password/${token}`),
          '',
          'If you did not ask for it, ignore this mail: your password stays as it is.',
        ].join('\n'),
      })
      .catch((error: unknown) => {
        this.logger.error(`password reset mail for ${user.id} not sent: ${String(error)}`);
      });
    return true;
  }

  /** Sets the password of the link's user, uses the link up and ends every session of that user. */
  async reset(input: ResetPasswordInput, meta: RequestMeta): Promise<true> {
    const { token, password } = parseInput(resetSchema, input, 'input');
    const row = await this.prisma.passwordResetToken.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { user: { select: { email: true, disabledAt: true } } },
    });
    if (!row || row.user.disabledAt) throw invalidLink('is not a valid password reset link');
    if (row.usedAt) throw invalidLink('was already used; ask for a new one');
    if (row.expiresAt.getTime() <= Date.now()) throw invalidLink('has expired; ask for a new one');

    const passwordHash = await hashPassword(password);
    const actor: AuditActor = {
      type: 'user',
      id: row.userId,
      requestId: meta.requestId,
      ip: meta.ip,
    };
    await this.prisma.$transaction(async (tx) => {
      const now = new Date();
      // one use only, also against a concurrent reset with the same link
      const { count } = await tx.passwordResetToken.updateMany({
        where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (count === 0) throw invalidLink('was already used; ask for a new one');
      await tx.user.update({
        where: { id: row.userId },
        data: { passwordHash, passwordChangedAt: now },
      });
      const sessionsRevoked = await this.sessions.revokeAllOf(tx, row.userId);
      await tx.passwordResetToken.deleteMany({ where: { userId: row.userId, usedAt: null } });
      await this.audit.record(tx, actor, {
        action: 'auth.password_reset',
        entityType: 'User',
        entityId: row.userId,
        after: { tokenId: row.id, sessionsRevoked },
      });
    });
    // whoever holds the mailbox may log in at once, whatever guesses came before
    await this.throttle.forgetAccount(row.user.email);
    return true;
  }

  /**
   * Changes the signed-in user's password after checking the current one (counted as a login
   * attempt, so a stolen session cannot guess it quickly) and ends the user's other sessions.
   */
  async change(auth: Authentication, input: ChangePasswordInput, meta: RequestMeta): Promise<true> {
    const { currentPassword, newPassword } = parseInput(changeSchema, input, 'input');
    const { user } = auth;
    const verdict = await this.throttle.attempt(user.email, meta.ip ?? 'unknown');
    if (!verdict.allowed) throw throttledError('login attempts', verdict.retryAfterMs);
    const stored = await this.prisma.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { passwordHash: true },
    });
    if (!(await verifyPassword(stored.passwordHash, currentPassword))) {
      throw AppError.badUserInput([
        { field: 'input.currentPassword', message: 'is not your current password' },
      ]);
    }
    await this.throttle.forgetAccount(user.email);
    if (newPassword === currentPassword) {
      throw AppError.badUserInput([
        { field: 'input.newPassword', message: 'must differ from the current password' },
      ]);
    }

    const passwordHash = await hashPassword(newPassword);
    const actor: AuditActor = { type: 'user', id: user.id, requestId: meta.requestId, ip: meta.ip };
    await this.prisma.$transaction(async (tx) => {
      await tx.user.update({
        where: { id: user.id },
        data: { passwordHash, passwordChangedAt: new Date() },
      });
      const sessionsRevoked = await this.sessions.revokeAllOf(tx, user.id, auth.sessionId);
      // a reset link mailed before the change must not undo it
      await tx.passwordResetToken.deleteMany({ where: { userId: user.id, usedAt: null } });
      await this.audit.record(tx, actor, {
        action: 'auth.password_change',
        entityType: 'User',
        entityId: user.id,
        after: { sessionsRevoked },
      });
    });
    return true;
  }
}
