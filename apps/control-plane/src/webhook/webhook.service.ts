import { Inject, Injectable } from '@nestjs/common';
import {
  newId,
  Prisma,
  type PrismaClient,
  type WebhookEndpoint as WebhookEndpointRow,
} from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import {
  DestinationError,
  drainEstimateMs,
  encryptSecret,
  endpointKeys,
  generateSigningSecret,
  readQueueStats,
  replayDeadLetters,
  resolveDestination,
  WEBHOOK_LIMITS,
  webhookEndpointFields,
} from '@sluice/webhooks';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { OutboxService } from '../outbox/outbox.service';
import { TenantChanges } from '../publish/tenant-changes.service';
import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
} from './models/webhook.inputs';
import type {
  WebhookEndpoint,
  WebhookEndpointSecretPayload,
  WebhookQueue,
  WebhookReplayPayload,
} from './models/webhook.model';
import { WebhookQueueService } from './webhook-queue.service';

const NO_SUCH_ENDPOINT = 'No such webhook endpoint.';
const DEFAULT_MAX_ATTEMPTS = 8;
/** After a rotation the previous secret signs too for this long, unless told otherwise. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
const MAX_ROTATION_GRACE_SECONDS = 7 * 86_400;
const RECENT_DELIVERIES = 20;
const DEAD_LETTERS_SHOWN = 20;
const NOT_NULL = { error: 'cannot be null; leave it out to keep it as it is' };

const createSchema = z.object({
  tenantId: z.string().min(1, 'is required'),
  ...webhookEndpointFields,
  maxAttempts: webhookEndpointFields.maxAttempts.nullish(),
  enabled: webhookEndpointFields.enabled.nullish(),
});

const updateSchema = z.object({
  id: z.string().min(1, 'is required'),
  name: z.string(NOT_NULL).pipe(webhookEndpointFields.name).optional(),
  url: z.string(NOT_NULL).pipe(webhookEndpointFields.url).optional(),
  leakRatePerSec: z.number(NOT_NULL).pipe(webhookEndpointFields.leakRatePerSec).optional(),
  queueCapacity: z.number(NOT_NULL).pipe(webhookEndpointFields.queueCapacity).optional(),
  maxAttempts: z.number(NOT_NULL).pipe(webhookEndpointFields.maxAttempts).optional(),
  enabled: z.boolean(NOT_NULL).optional(),
});

const graceSchema = z
  .int()
  .min(0, `must be 0 to ${MAX_ROTATION_GRACE_SECONDS} seconds`)
  .max(MAX_ROTATION_GRACE_SECONDS, `must be 0 to ${MAX_ROTATION_GRACE_SECONDS} seconds`);

/** Absent keys (GraphQL leaves them undefined) are left out; `null` never reaches here. */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** What the audit log keeps of an endpoint: its settings, never its secret. */
function auditView(row: WebhookEndpointRow) {
  return {
    name: row.name,
    url: row.url,
    leakRatePerSec: row.leakRatePerSec,
    queueCapacity: row.queueCapacity,
    maxAttempts: row.maxAttempts,
    enabled: row.enabled,
  };
}

function toEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    url: row.url,
    leakRatePerSec: row.leakRatePerSec,
    queueCapacity: row.queueCapacity,
    maxAttempts: row.maxAttempts,
    enabled: row.enabled,
    previousSecretExpiresAt: row.previousSecretExpiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/**
 * Webhook endpoints of tenants. Every change writes the row, its audit entry (never the secret)
 * and an outbox event in one transaction; the relay then publishes the tenant's endpoints to
 * Redis (`publishWebhookEndpoints`), where intake and the worker read them.
 *
 * Endpoints are addressed by id: one the caller may not read is NOT_FOUND, like one that does
 * not exist; one it may read but not change (a viewer) is FORBIDDEN.
 */
@Injectable()
export class WebhookService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(ENV) private readonly env: Env,
    private readonly redis: RedisService,
    private readonly tenantAccess: TenantAccessService,
    private readonly audit: AuditService,
    private readonly outbox: OutboxService,
    private readonly changes: TenantChanges,
    private readonly queues: WebhookQueueService,
  ) {}

  async list(user: AuthUser, tenantId: string): Promise<WebhookEndpoint[]> {
    await this.tenantAccess.tenant(user, tenantId, 'read');
    const rows = await this.prisma.webhookEndpoint.findMany({
      where: { tenantId },
      orderBy: [{ name: 'asc' }],
    });
    return rows.map(toEndpoint);
  }

  async get(user: AuthUser, id: string): Promise<WebhookEndpoint> {
    return toEndpoint(await this.accessible(this.prisma, user, id, 'read'));
  }

  async create(
    user: AuthUser,
    actor: AuditActor,
    input: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointSecretPayload> {
    const data = parseInput(createSchema, input, 'input');
    await this.tenantAccess.tenant(user, data.tenantId, 'write');
    const key = this.secretsKey();
    await this.checkDestination(data.url, 'input.url');
    const id = newId('webhookEndpoint');
    const secret = generateSigningSecret();
    const row = await this.unique(() =>
      this.changes.run(async (tx) => {
        const tenant = await tx.tenant.findFirst({ where: { id: data.tenantId, deletedAt: null } });
        if (!tenant) throw AppError.notFound('No such tenant.');
        const count = await tx.webhookEndpoint.count({ where: { tenantId: data.tenantId } });
        if (count >= WEBHOOK_LIMITS.maxEndpointsPerTenant) {
          throw AppError.conflict(
            `A tenant has at most ${WEBHOOK_LIMITS.maxEndpointsPerTenant} webhook endpoints.`,
            'input.tenantId',
          );
        }
        const created = await tx.webhookEndpoint.create({
          data: {
            id,
            tenantId: data.tenantId,
            name: data.name,
            url: data.url,
            secretCiphertext: encryptSecret(key, secret, {
              tenantId: data.tenantId,
              endpointId: id,
            }),
            leakRatePerSec: data.leakRatePerSec,
            queueCapacity: data.queueCapacity,
            maxAttempts: data.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
            enabled: data.enabled ?? true,
          },
        });
        await this.audit.record(tx, actor, {
          action: 'webhook_endpoint.create',
          entityType: 'WebhookEndpoint',
          entityId: created.id,
          tenantId: created.tenantId,
          after: auditView(created),
        });
        await this.outbox.enqueue(tx, created.tenantId, 'tenant');
        return created;
      }),
    );
    return { endpoint: toEndpoint(row), secret };
  }

  async update(
    user: AuthUser,
    actor: AuditActor,
    input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpoint> {
    const { id, ...changes } = parseInput(updateSchema, input, 'input');
    const patch = defined(changes);
    if (patch.url !== undefined) await this.checkDestination(patch.url, 'input.url');
    const row = await this.unique(() =>
      this.changes.run(async (tx) => {
        const before = await this.lockForWrite(tx, user, id);
        const after = await tx.webhookEndpoint.update({ where: { id }, data: patch });
        await this.audit.record(tx, actor, {
          action: 'webhook_endpoint.update',
          entityType: 'WebhookEndpoint',
          entityId: id,
          tenantId: after.tenantId,
          before: auditView(before),
          after: auditView(after),
        });
        await this.outbox.enqueue(tx, after.tenantId, 'tenant');
        return after;
      }),
    );
    return toEndpoint(row);
  }

  /** Deletes the endpoint and its delivery records; events still queued are dropped. */
  async delete(user: AuthUser, actor: AuditActor, id: string): Promise<string> {
    await this.changes.run(async (tx) => {
      const before = await this.lockForWrite(tx, user, id);
      await tx.webhookEndpoint.delete({ where: { id } });
      await this.audit.record(tx, actor, {
        action: 'webhook_endpoint.delete',
        entityType: 'WebhookEndpoint',
        entityId: id,
        tenantId: before.tenantId,
        before: auditView(before),
      });
      await this.outbox.enqueue(tx, before.tenantId, 'tenant');
    });
    return id;
  }

  /**
   * A new signing secret, shown once. The previous one keeps signing too (a second `v1=` entry)
   * for `keepPreviousSeconds`, so receivers can switch without refusing a delivery; 0 drops it
   * at once (a leaked secret).
   */
  async rotate(
    user: AuthUser,
    actor: AuditActor,
    id: string,
    keepPreviousSeconds: number | null | undefined,
  ): Promise<WebhookEndpointSecretPayload> {
    const grace = parseInput(
      graceSchema,
      keepPreviousSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS,
      'keepPreviousSeconds',
    );
    const key = this.secretsKey();
    const secret = generateSigningSecret();
    const row = await this.changes.run(async (tx) => {
      const before = await this.lockForWrite(tx, user, id);
      const after = await tx.webhookEndpoint.update({
        where: { id },
        data: {
          secretCiphertext: encryptSecret(key, secret, {
            tenantId: before.tenantId,
            endpointId: id,
          }),
          previousSecretCiphertext: grace > 0 ? before.secretCiphertext : null,
          previousSecretExpiresAt: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
        },
      });
      await this.audit.record(tx, actor, {
        action: 'webhook_endpoint.rotate_secret',
        entityType: 'WebhookEndpoint',
        entityId: id,
        tenantId: after.tenantId,
        after: { previousSecretExpiresAt: after.previousSecretExpiresAt?.toISOString() ?? null },
      });
      await this.outbox.enqueue(tx, after.tenantId, 'tenant');
      return after;
    });
    return { endpoint: toEndpoint(row), secret };
  }

  /**
   * Sends dead letters (the oldest 1000, those that died at or after `since`, or the ones named)
   * back to the queue with their event ids. Only this endpoint's dead letters are touched.
   * Audited; nothing changes in PostgreSQL's configuration, so no outbox event.
   */
  async replay(
    user: AuthUser,
    actor: AuditActor,
    endpointId: string,
    selection: { eventIds?: readonly string[]; since?: Date },
  ): Promise<WebhookReplayPayload> {
    const row = await this.accessible(this.prisma, user, endpointId, 'write');
    // not in a transaction: a long replay must not hold one open; audited once it is done
    const outcome = await replayDeadLetters(
      this.redis.client,
      this.queues.handle(),
      this.env.SLUICE_KEY_PREFIX,
      row.tenantId,
      row.id,
      { eventIds: selection.eventIds, since: selection.since?.getTime() },
    );
    await this.audit.record(this.prisma, actor, {
      action: 'webhook_endpoint.replay',
      entityType: 'WebhookEndpoint',
      entityId: row.id,
      tenantId: row.tenantId,
      after: {
        replayed: outcome.replayed,
        missing: outcome.missing,
        ...(selection.since && { since: selection.since.toISOString() }),
      },
    });
    return outcome;
  }

  /** The endpoint's queue now (Redis), its latest attempts and dead letters (PostgreSQL). */
  async queue(endpoint: WebhookEndpoint): Promise<WebhookQueue> {
    const prefix = this.env.SLUICE_KEY_PREFIX;
    const keys = endpointKeys(prefix, endpoint.tenantId, endpoint.id);
    const [[stats], dead, recent] = await Promise.all([
      readQueueStats(this.redis.client, prefix, endpoint.tenantId, [endpoint.id]),
      this.redis.client.zrevrange(keys.dead, 0, DEAD_LETTERS_SHOWN - 1, 'WITHSCORES'),
      this.prisma.webhookDelivery.findMany({
        where: { endpointId: endpoint.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: RECENT_DELIVERIES,
      }),
    ]);
    const deadIds = dead.filter((_, i) => i % 2 === 0);
    const lastAttempts = await this.prisma.webhookDelivery.findMany({
      where: { endpointId: endpoint.id, eventId: { in: deadIds }, status: 'dead' },
      orderBy: { attempt: 'desc' },
    });
    return {
      depth: stats?.depth ?? 0,
      leakRatePerSec: endpoint.leakRatePerSec,
      inFlight: stats?.inFlight ?? 0,
      delivered: stats?.delivered ?? 0,
      failed: stats?.failed ?? 0,
      dead: stats?.dead ?? 0,
      oldestWaitingMs: stats?.oldestWaitingMs ?? null,
      pausedUntil: stats?.pausedUntil ? new Date(stats.pausedUntil) : null,
      consecutiveFailures: stats?.consecutiveFailures ?? 0,
      timeToDrainMs: stats ? drainEstimateMs(stats, endpoint.leakRatePerSec, Date.now()) : 0,
      recentDeliveries: recent,
      deadLetters: deadIds.map((eventId, i) => {
        const last = lastAttempts.find((attempt) => attempt.eventId === eventId);
        return {
          eventId,
          eventType: last?.eventType ?? null,
          diedAt: new Date(Number(dead[i * 2 + 1])),
          lastError: last?.error ?? null,
        };
      }),
    };
  }

  /** The key that encrypts signing secrets; CONFLICT when the deployment has none. */
  private secretsKey(): Buffer {
    const key = this.env.SLUICE_SECRETS_KEY;
    if (!key) {
      throw AppError.conflict(
        'Webhook endpoints cannot be made or rotated: the control plane has no SLUICE_SECRETS_KEY to encrypt their secrets.',
      );
    }
    return key;
  }

  /** BAD_USER_INPUT on `field` when the URL's host resolves to an address webhooks may not reach. */
  private async checkDestination(url: string, field: string): Promise<void> {
    try {
      await resolveDestination(url, this.env.SLUICE_WEBHOOK_ALLOWED_CIDRS);
    } catch (error) {
      if (error instanceof DestinationError) {
        throw AppError.badUserInput([{ field, message: error.message }]);
      }
      throw error;
    }
  }

  /** A name taken in the tenant is a CONFLICT on `input.name`. */
  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw AppError.conflict('The tenant has a webhook endpoint of that name.', 'input.name');
      }
      throw error;
    }
  }

  /** The endpoint if it exists (in a live tenant) and the caller may do `action` to it. */
  private async accessible(
    db: Prisma.TransactionClient,
    user: AuthUser,
    id: string,
    action: 'read' | 'write',
  ): Promise<WebhookEndpointRow> {
    const found = await db.webhookEndpoint.findUnique({
      where: { id },
      include: { tenant: { select: { deletedAt: true } } },
    });
    if (!found || found.tenant.deletedAt) throw AppError.notFound(NO_SUCH_ENDPOINT);
    this.tenantAccess.check(user, found.tenantId, action, NO_SUCH_ENDPOINT);
    const { tenant: _tenant, ...row } = found;
    return row;
  }

  /** The endpoint, locked for the rest of the transaction, if the caller may change it. */
  private async lockForWrite(
    tx: Prisma.TransactionClient,
    user: AuthUser,
    id: string,
  ): Promise<WebhookEndpointRow> {
    await tx.$queryRaw`SELECT id FROM "WebhookEndpoint" WHERE id = ${id} FOR UPDATE`;
    return this.accessible(tx, user, id, 'write');
  }
}
