import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { RedisPublisher, type PublishOutcome } from './redis-publisher.service';

const BATCH = 100;
const MAX_BACKOFF_MS = 30_000;

interface DueEvent {
  id: bigint;
  tenantId: string;
  attempts: number;
}

/**
 * Publishes what the outbox says changed. Polls every `CONTROL_PLANE_RELAY_INTERVAL_MS` and at
 * once when nudged after a commit; events are claimed with `FOR UPDATE SKIP LOCKED`, so several
 * control planes share the work. A failed publish (Redis down) stays in the outbox and is retried
 * with exponential backoff; one tenant's failure does not hold up the others.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Called after each publish (tests and metrics listen). */
  readonly listeners = new Set<(outcome: PublishOutcome) => void>();

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly publisher: RedisPublisher,
    @Inject(ENV) private readonly env: Env,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.nudge(), this.env.CONTROL_PLANE_RELAY_INTERVAL_MS);
    this.timer.unref();
    this.nudge();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs a pass now (or right after the one running). */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.logger.error(`relay pass failed: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** Publishes every due event's tenant once; resolves when the outbox has nothing due. */
  async drain(): Promise<void> {
    for (;;) {
      const handled = await this.prisma.$transaction(
        async (tx) => {
          const due = await tx.$queryRaw<DueEvent[]>`
            SELECT id, "tenantId", attempts FROM "OutboxEvent"
            WHERE "processedAt" IS NULL AND "availableAt" <= now()
            ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
          const byTenant = new Map<string, DueEvent[]>();
          for (const event of due) {
            byTenant.set(event.tenantId, [...(byTenant.get(event.tenantId) ?? []), event]);
          }
          for (const [tenantId, events] of byTenant) {
            const ids = events.map((event) => event.id);
            try {
              const outcome = await this.publisher.publish(tenantId);
              await tx.outboxEvent.updateMany({
                where: { id: { in: ids } },
                data: { processedAt: new Date(), lastError: null },
              });
              for (const listener of this.listeners) listener(outcome);
            } catch (error) {
              const attempts = Math.max(...events.map((event) => event.attempts)) + 1;
              const delayMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** (attempts - 1));
              this.logger.warn(
                `publishing tenant ${tenantId} failed (attempt ${attempts}, retry in ${delayMs} ms): ${String(error)}`,
              );
              await tx.outboxEvent.updateMany({
                where: { id: { in: ids } },
                data: {
                  attempts,
                  lastError: String(error).slice(0, 1000),
                  availableAt: new Date(Date.now() + delayMs),
                },
              });
            }
          }
          return due.length;
        },
        { timeout: 60_000 },
      );
      if (handled < BATCH || this.stopped) return;
    }
  }
}
