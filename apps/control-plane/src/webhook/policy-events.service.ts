import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import { tenantKey } from '@sluice/policy';
import {
  admitOwnEvent,
  ENABLED_ENDPOINTS_FIELD,
  endpointsKey,
  POLICY_PUBLISHED_EVENT,
} from '@sluice/webhooks';
import { ENV, type Env } from '../env';
import { OutboxRelay } from '../publish/outbox-relay.service';
import type { PublishOutcome } from '../publish/redis-publisher.service';
import { WebhookQueueService } from './webhook-queue.service';

/**
 * `sluice.policy.published { tenantId, version, publishedAt }` to every enabled endpoint of a
 * tenant, each time the outbox relay writes a new version of it to Redis (a publish that only
 * changed keys or endpoints writes none, and sends nothing). Version 1 is the configuration a
 * tenant starts with, published as it is created (for a tenant written without the API, with
 * the endpoints seeded beside it): no change to announce. Every later version is (a change, an
 * import, a rollback).
 *
 * A listener on the relay rather than part of it: the relay's transaction does not wait for
 * the admissions, and a failed one (logged) never fails a publish. The idempotency key is the
 * tenant and version, so a version written twice (a republish after Redis lost it, while the
 * key is still remembered) goes out once per endpoint. Otherwise at most once: a failed
 * admission, or a process stopping between the publish and the admission, loses the event.
 */
@Injectable()
export class PolicyEvents implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('PolicyEvents');
  private readonly sending = new Set<Promise<void>>();
  private readonly listener = (outcome: PublishOutcome): void => {
    const { configWritten, deleted, version } = outcome;
    if (!configWritten || deleted || version === undefined || version < 2) return;
    const sent: Promise<void> = this.send(outcome.tenantId, version).finally(() =>
      this.sending.delete(sent),
    );
    this.sending.add(sent);
  };

  constructor(
    @Inject(ENV) private readonly env: Env,
    private readonly relay: OutboxRelay,
    private readonly redis: RedisService,
    private readonly queue: WebhookQueueService,
  ) {}

  onModuleInit(): void {
    this.relay.listeners.add(this.listener);
  }

  /** Before the queue handle and Redis close: the admissions under way finish first. */
  async beforeApplicationShutdown(): Promise<void> {
    this.relay.listeners.delete(this.listener);
    await Promise.all(this.sending);
  }

  private async send(tenantId: string, version: number): Promise<void> {
    const client = this.redis.client;
    const prefix = this.env.SLUICE_KEY_PREFIX;
    try {
      // a tenant without an enabled endpoint costs this lookup, and no queue connection
      if (!(await client.hexists(endpointsKey(prefix, tenantId), ENABLED_ENDPOINTS_FIELD))) return;
      const admissions = await admitOwnEvent(client, this.queue.handle(), prefix, tenantId, {
        type: POLICY_PUBLISHED_EVENT,
        payload: { tenantId, version, publishedAt: await this.publishedAt(tenantId, version) },
        idempotencyKey: `${POLICY_PUBLISHED_EVENT}/${tenantId}/${version}`,
      });
      for (const { endpointId, result } of admissions) {
        if (result.status === 'queue-full' || result.status === 'idempotency-conflict') {
          this.logger.warn(
            `${POLICY_PUBLISHED_EVENT} of tenant ${tenantId} version ${version} not admitted to endpoint ${endpointId}: ${result.status}`,
          );
        }
      }
    } catch (error) {
      this.logger.warn(
        `${POLICY_PUBLISHED_EVENT} of tenant ${tenantId} version ${version} not sent: ${String(error)}`,
      );
    }
  }

  /**
   * When Redis took the version (its clock, as the data planes and `publication` see it); the
   * time now should a later version already have replaced it.
   */
  private async publishedAt(tenantId: string, version: number): Promise<string> {
    const key = tenantKey(this.env.SLUICE_KEY_PREFIX, tenantId);
    const [stored, at] = await this.redis.client.hmget(key, 'version', 'publishedAt');
    const ms = stored === String(version) && at ? Number(at) : Date.now();
    return new Date(ms).toISOString();
  }
}
