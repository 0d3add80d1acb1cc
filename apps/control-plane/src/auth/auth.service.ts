import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Prisma, PrismaClient } from '@sluice/db';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import type { RequestMeta } from '../graphql/graphql-context';
import { parseInput } from '../graphql/input';
import type { Authentication, AuthUser } from './auth-user';
import { emailSchema } from './email';
import { LoginThrottleService, throttledError } from './login-throttle.service';
import { type LoginInput, type LoginPayload, SessionTransport } from './models/login.model';
import { MAX_PASSWORD_LENGTH, verifyPassword } from './passwords';
import { clearSessionCookies, setSessionCookies } from './session-cookies';
import { type NewSession, SessionService } from './session.service';

/** The one answer to every wrong credential, so it never tells whether an account exists. */
const INVALID_CREDENTIALS = 'Invalid email or password.';

const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .min(1, 'is required')
    .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  transport: z.enum(SessionTransport),
});

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(ENV) private readonly env: Env,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottleService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Checks the credentials (throttled per account and per IP) and starts a session: as cookies
   * on `reply`, or as a bearer token in the payload. Failures are audited, with why.
   */
  async login(
    input: LoginInput,
    meta: RequestMeta,
    reply: FastifyReply | undefined,
  ): Promise<LoginPayload> {
    const { email, password, transport } = parseInput(loginSchema, input, 'input');
    this.checkTransport(transport, reply);
    const verdict = await this.throttle.attempt(email, meta.ip ?? 'unknown');
    if (!verdict.allowed) {
      this.logger.warn(`login throttled (ip ${meta.ip ?? 'unknown'})`);
      throw throttledError('login attempts', verdict.retryAfterMs);
    }

    const user = await this.prisma.user.findUnique({
      where: { email },
      include: { memberships: { select: { tenantId: true, role: true } } },
    });
    const passwordMatches = await verifyPassword(user?.passwordHash ?? null, password);
    const actor: AuditActor = {
      type: 'user',
      id: user?.id ?? null,
      requestId: meta.requestId,
      ip: meta.ip,
    };
    if (!user || !passwordMatches || user.disabledAt) {
      const reason = !user ? 'unknown-account' : !passwordMatches ? 'wrong-password' : 'disabled';
      await this.audit.record(this.prisma, actor, {
        action: 'auth.login_failed',
        entityType: 'User',
        entityId: user?.id ?? 'unknown',
        after: { email, reason },
      });
      throw AppError.unauthenticated(INVALID_CREDENTIALS);
    }

    await this.throttle.forgetAccount(email);
    const created = await this.prisma.$transaction((tx) =>
      this.startSession(tx, actor, user.id, transport, meta),
    );
    const authUser: AuthUser = {
      id: user.id,
      email: user.email,
      name: user.name,
      createdAt: user.createdAt,
      memberships: user.memberships,
    };
    return this.deliverSession(authUser, created, transport, reply);
  }

  /** BAD_USER_INPUT (`input.transport`) for COOKIE where there is no HTTP reply to set it on. */
  checkTransport(transport: SessionTransport, reply: FastifyReply | undefined): void {
    if (transport === SessionTransport.COOKIE && !reply) {
      throw AppError.badUserInput([
        { field: 'input.transport', message: 'COOKIE needs an HTTP request; use BEARER here' },
      ]);
    }
  }

  /** Creates a session for `userId` and audits it (`auth.login`) in the caller's transaction. */
  async startSession(
    tx: Prisma.TransactionClient,
    actor: AuditActor,
    userId: string,
    transport: SessionTransport,
    meta: RequestMeta,
  ): Promise<NewSession> {
    const created = await this.sessions.create(tx, userId, meta);
    await this.audit.record(tx, actor, {
      action: 'auth.login',
      entityType: 'Session',
      entityId: created.session.id,
      after: { transport, expiresAt: created.session.expiresAt.toISOString() },
    });
    return created;
  }

  /** After the session's transaction committed: its cookies (COOKIE) or its token (BEARER). */
  deliverSession(
    user: AuthUser,
    { session, token, csrfToken }: NewSession,
    transport: SessionTransport,
    reply: FastifyReply | undefined,
  ): LoginPayload {
    if (transport === SessionTransport.COOKIE && reply) {
      setSessionCookies(
        reply,
        { token, csrfToken, expiresAt: session.expiresAt },
        this.env.CONTROL_PLANE_COOKIE_SECURE,
      );
    }
    return {
      user,
      expiresAt: session.expiresAt,
      csrfToken: transport === SessionTransport.COOKIE ? csrfToken : null,
      token: transport === SessionTransport.BEARER ? token : null,
    };
  }

  /** Revokes the request's session (audited) and clears its cookies. */
  async logout(
    auth: Authentication,
    actor: AuditActor,
    reply: FastifyReply | undefined,
  ): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await this.sessions.revoke(tx, auth.sessionId);
      await this.audit.record(tx, actor, {
        action: 'auth.logout',
        entityType: 'Session',
        entityId: auth.sessionId,
      });
    });
    if (reply) clearSessionCookies(reply, this.env.CONTROL_PLANE_COOKIE_SECURE);
  }
}
