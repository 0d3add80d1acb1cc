import { Inject, Injectable } from '@nestjs/common';
import { newId, type Prisma, type PrismaClient, type Session } from '@sluice/db';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import type { RequestMeta } from '../graphql/graphql-context';
import type { AuthUser } from './auth-user';
import { hashToken, newSecretToken } from './tokens';

/** Recording every use would write on every request; idle expiry needs only this precision. */
const LAST_SEEN_PRECISION_MS = 60_000;
const MAX_USER_AGENT_LENGTH = 512;

export interface NewSession {
  session: Session;
  /** Sent to the client once, never stored. */
  token: string;
  csrfToken: string;
}

export interface LiveSession {
  session: Session;
  user: AuthUser;
}

@Injectable()
export class SessionService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(ENV) private readonly env: Env,
  ) {}

  /** Starts a session for `userId` inside the caller's transaction. */
  async create(
    tx: Prisma.TransactionClient,
    userId: string,
    meta: RequestMeta,
  ): Promise<NewSession> {
    const token = newSecretToken();
    const csrfToken = newSecretToken();
    const now = new Date();
    const session = await tx.session.create({
      data: {
        id: newId('session'),
        userId,
        tokenHash: hashToken(token),
        csrfHash: hashToken(csrfToken),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + this.env.CONTROL_PLANE_SESSION_ABSOLUTE_SECONDS * 1000),
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
      },
    });
    return { session, token, csrfToken };
  }

  /**
   * The session `token` opens and its user, unless it is unknown, revoked, past its absolute
   * lifetime, idle for longer than the idle lifetime, or its user is disabled.
   */
  async resolve(token: string): Promise<LiveSession | undefined> {
    const found = await this.prisma.session.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { user: { include: { memberships: { select: { tenantId: true, role: true } } } } },
    });
    if (!found) return undefined;
    const { user, ...session } = found;
    const now = Date.now();
    const idleUntil =
      session.lastSeenAt.getTime() + this.env.CONTROL_PLANE_SESSION_IDLE_SECONDS * 1000;
    if (session.revokedAt || session.expiresAt.getTime() <= now || idleUntil <= now)
      return undefined;
    if (user.disabledAt) return undefined;
    if (now - session.lastSeenAt.getTime() >= LAST_SEEN_PRECISION_MS) {
      session.lastSeenAt = new Date(now);
      await this.prisma.session.update({
        where: { id: session.id },
        data: { lastSeenAt: session.lastSeenAt },
      });
    }
    return {
      session,
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        createdAt: user.createdAt,
        memberships: user.memberships,
      },
    };
  }

  /**
   * Ends every live session of `userId` but `keep` (the caller's own, on a password change)
   * inside the caller's transaction; returns how many it ended.
   */
  async revokeAllOf(tx: Prisma.TransactionClient, userId: string, keep?: string): Promise<number> {
    const { count } = await tx.session.updateMany({
      where: { userId, revokedAt: null, ...(keep === undefined ? {} : { id: { not: keep } }) },
      data: { revokedAt: new Date() },
    });
    return count;
  }

  /** Ends a session inside the caller's transaction; an already revoked one stays as it was. */
  async revoke(tx: Prisma.TransactionClient, sessionId: string): Promise<void> {
    await tx.session.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }
}
