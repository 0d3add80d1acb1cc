import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import { readTenantVersions } from '@sluice/policy';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { OutboxService } from '../outbox/outbox.service';
import { OutboxRelay } from './outbox-relay.service';

const PAGE = 500;

/**
 * Every `CONTROL_PLANE_RECONCILE_INTERVAL_MS` (and at boot), compares each tenant's latest
 * version with the one Redis holds and queues a publish where Redis has none or an older one: a
 * Redis restart, a FLUSHALL or a lost write is repaired within one interval. Tenants being
 * deleted are queued again until their deletion completes.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly redis: RedisService,
    private readonly outbox: OutboxService,
    private readonly relay: OutboxRelay,
    @Inject(ENV) private readonly env: Env,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), this.env.CONTROL_PLANE_RECONCILE_INTERVAL_MS);
    this.timer.unref();
    void this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass (a pass already running is joined); resolves with the tenants it queued. */
  run(): Promise<number> {
    this.running ??= this.reconcile()
      .catch((error: unknown) => {
        this.logger.warn(`reconcile pass failed: ${String(error)}`);
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async reconcile(): Promise<number> {
    let queued = 0;
    let after = '';
    for (;;) {
      const tenants = await this.prisma.$queryRaw<
        { id: string; deleted: boolean; version: number | null; pending: boolean }[]
      >`
        SELECT t.id, t."deletedAt" IS NOT NULL AS deleted,
          (SELECT max(v.version) FROM "PolicyVersion" v WHERE v."tenantId" = t.id) AS version,
          EXISTS (SELECT 1 FROM "OutboxEvent" o
                  WHERE o."tenantId" = t.id AND o."processedAt" IS NULL) AS pending
        FROM "Tenant" t WHERE t.id > ${after} ORDER BY t.id LIMIT ${PAGE}`;
      if (tenants.length === 0) break;
      after = tenants.at(-1)?.id ?? after;
      const stored = await readTenantVersions(
        this.redis.client,
        this.env.SLUICE_KEY_PREFIX,
        tenants.map((tenant) => tenant.id),
      );
      const stale = tenants.filter((tenant) => {
        if (tenant.pending) return false;
        if (tenant.deleted) return true;
        const inRedis = stored.get(tenant.id);
        return tenant.version === null || inRedis === undefined || inRedis < tenant.version;
      });
      if (stale.length > 0) {
        await this.prisma.$transaction(async (tx) => {
          for (const tenant of stale) {
            await this.outbox.enqueue(tx, tenant.id, tenant.deleted ? 'tenant-deleted' : 'tenant');
          }
        });
        queued += stale.length;
      }
      if (tenants.length < PAGE) break;
    }
    if (queued > 0) {
      this.logger.log(`queued ${queued} tenant(s) whose Redis copy was missing or stale`);
      this.relay.nudge();
    }
    return queued;
  }
}
