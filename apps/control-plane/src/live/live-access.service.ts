import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import { AccessService } from '../access/access.service';
import type { Authentication } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { PushIterator } from './push-iterator';

/** Who runs a subscription, and on which WebSocket connection (its upgrade request). */
export interface LiveCaller {
  auth: Authentication;
  connection: object;
}

/** What a guarded subscription yields: its values, or the error that ended it. */
export type Guarded<T> = T | AppError;

interface Running {
  readonly caller: LiveCaller;
  /** null: about no tenant (only the session is checked again). */
  readonly tenantId: string | null;
  readonly feed: {
    readonly isClosed: boolean;
    end(last: AppError): void;
    return(): Promise<unknown>;
  };
}

/**
 * Every running subscription of this process, bounded per connection and per user, and checked
 * again while it runs: subscriptions are authorized when they start, so a removed member, a
 * revoked or expired session, a disabled user or a deleted tenant would otherwise keep
 * streaming. Every `CONTROL_PLANE_SUBSCRIPTION_RECHECK_MS` one query reads the sessions and
 * memberships of all running subscriptions; one that lost its access gets a last FORBIDDEN
 * error and completes. (A stream does not renew its session's idle time, nor is it ended by it:
 * the client is not idle while it watches.)
 */
@Injectable()
export class LiveAccessService implements OnModuleDestroy {
  private readonly logger = new Logger('LiveAccess');
  private readonly running = new Set<Running>();
  private readonly perConnection = new WeakMap<object, number>();
  private readonly perUser = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly access: AccessService,
    @Inject(ENV) private readonly env: Env,
  ) {}

  /**
   * Runs the subscription `open` starts for `caller` (already authorized for `tenantId`), if
   * the caps allow one more; the feed it returns is ended when the caller's access ends.
   */
  async run<T>(
    caller: LiveCaller,
    tenantId: string | null,
    open: () => Promise<AsyncIterator<T>>,
  ): Promise<AsyncIterableIterator<Guarded<T>>> {
    const userId = caller.auth.user.id;
    this.reserve(caller);
    let source: AsyncIterator<T>;
    try {
      source = await open();
    } catch (error) {
      this.release(caller);
      throw error;
    }
    const feed = new PushIterator<Guarded<T>>(() => {
      this.running.delete(running);
      this.release(caller);
      void source.return?.();
    });
    const running: Running = { caller, tenantId, feed };
    this.running.add(running);
    this.startChecking();
    void this.forward(source, feed, userId);
    return feed;
  }

  /** Running subscriptions (for tests and debugging). */
  stats(): { running: number; users: number } {
    return { running: this.running.size, users: this.perUser.size };
  }

  /** Checks every running subscription's access now; returns how many it ended. */
  async recheck(): Promise<number> {
    const running = [...this.running];
    if (running.length === 0) return 0;
    const sessionIds = [...new Set(running.map((r) => r.caller.auth.sessionId))];
    const tenantIds = [
      ...new Set(running.flatMap((r) => (r.tenantId === null ? [] : [r.tenantId]))),
    ];
    const [sessions, tenants] = await Promise.all([
      this.prisma.session.findMany({
        where: { id: { in: sessionIds }, revokedAt: null, expiresAt: { gt: new Date() } },
        select: {
          id: true,
          user: {
            select: { disabledAt: true, memberships: { select: { tenantId: true, role: true } } },
          },
        },
      }),
      this.prisma.tenant.findMany({
        where: { id: { in: tenantIds }, deletedAt: null },
        select: { id: true },
      }),
    ]);
    const live = new Map(
      sessions.filter((s) => s.user.disabledAt === null).map((s) => [s.id, s.user.memberships]),
    );
    const liveTenants = new Set(tenants.map((t) => t.id));
    let ended = 0;
    for (const r of running) {
      const memberships = live.get(r.caller.auth.sessionId);
      const allowed =
        memberships !== undefined &&
        (r.tenantId === null ||
          (liveTenants.has(r.tenantId) &&
            this.access.can({ ...r.caller.auth.user, memberships }, 'read', r.tenantId)));
      if (allowed || r.feed.isClosed) continue;
      ended += 1;
      r.feed.end(
        AppError.forbidden(
          memberships === undefined
            ? 'Your session has ended: sign in again.'
            : 'You no longer have access to this tenant.',
        ),
      );
    }
    return ended;
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const r of [...this.running]) void r.feed.return();
  }

  private reserve(caller: LiveCaller): void {
    const onConnection = this.perConnection.get(caller.connection) ?? 0;
    const ofUser = this.perUser.get(caller.auth.user.id) ?? 0;
    const perConnection = this.env.CONTROL_PLANE_SUBSCRIPTIONS_PER_CONNECTION;
    const perUser = this.env.CONTROL_PLANE_SUBSCRIPTIONS_PER_USER;
    if (onConnection >= perConnection || ofUser >= perUser) {
      const [scope, limit] =
        onConnection >= perConnection ? ['connection', perConnection] : ['user', perUser];
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `At most ${limit} subscriptions may run per ${scope}: end one before starting another.`,
        { limit, scope },
      );
    }
    this.perConnection.set(caller.connection, onConnection + 1);
    this.perUser.set(caller.auth.user.id, ofUser + 1);
  }

  private release(caller: LiveCaller): void {
    const onConnection = (this.perConnection.get(caller.connection) ?? 1) - 1;
    this.perConnection.set(caller.connection, onConnection);
    const ofUser = (this.perUser.get(caller.auth.user.id) ?? 1) - 1;
    if (ofUser > 0) this.perUser.set(caller.auth.user.id, ofUser);
    else this.perUser.delete(caller.auth.user.id);
  }

  /** Hands the source's values on until either side ends. */
  private async forward<T>(
    source: AsyncIterator<T>,
    feed: PushIterator<Guarded<T>>,
    userId: string,
  ): Promise<void> {
    try {
      for (;;) {
        const next = await source.next();
        if (next.done || feed.isClosed) break;
        feed.push(next.value);
      }
    } catch (error) {
      this.logger.warn(`a subscription of user ${userId} failed: ${String(error)}`);
    }
    feed.end();
  }

  /** One timer while anything runs; a check still running skips the next. */
  private startChecking(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
        return;
      }
      if (this.checking) return;
      this.checking = true;
      this.recheck()
        .catch((error: unknown) =>
          this.logger.warn(`subscription recheck failed: ${String(error)}`),
        )
        .finally(() => (this.checking = false));
    }, this.env.CONTROL_PLANE_SUBSCRIPTION_RECHECK_MS);
    this.timer.unref();
  }
}

/** The `resolve` of a guarded subscription: its values as they are, its ending error thrown. */
export function resolveGuarded<T>(value: Guarded<T>): T {
  if (value instanceof AppError) throw value;
  return value;
}
