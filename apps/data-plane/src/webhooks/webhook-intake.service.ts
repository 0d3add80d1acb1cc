import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ForbiddenError, UnavailableError } from '@sluice/engine';
import type { ApiKeyRecord } from '@sluice/policy';
import {
  admitWebhookEvent,
  createWebhookQueue,
  readWebhookEndpoint,
  type AdmissionResult,
} from '@sluice/webhooks';
import { Redis } from 'ioredis';
import { Counter, Registry } from 'prom-client';
import { ENV, type Env } from '../env';
import {
  IdempotencyConflictError,
  WebhookEndpointDisabledError,
  WebhookEndpointNotFoundError,
} from './webhook.errors';
import type { WebhookRequestBody } from './webhooks.schema';

export type IntakeAnswer =
  | { status: 'admitted'; eventId: string; departureAt: number; replayed: boolean }
  | { status: 'queue-full'; retryAfterMs: number };

/**
 * Takes webhook events for the worker: the endpoint's settings from Redis (published with the
 * tenant, so intake never reads PostgreSQL), admission by the endpoint's leaky bucket, then the
 * delayed BullMQ job. Owns its Redis connection (commands queue while reconnecting, unlike the
 * engine's, since an admission must not be answered before its job exists) and the queue handle.
 */
@Injectable()
export class WebhookIntake implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookIntake');
  private readonly redis: Redis;
  private queue: ReturnType<typeof createWebhookQueue> | undefined;
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    @Inject(ENV) private readonly env: Env,
    registry: Registry,
  ) {
    this.redis = new Redis(env.REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      connectionName: 'sluice-data-plane-webhooks',
    });
    let down = false;
    this.redis.on('error', (error: Error) => {
      if (down) return;
      down = true;
      this.logger.warn(`Redis (webhooks) unavailable: ${error.message}`);
    });
    this.redis.on('ready', () => (down = false));
    this.outcomes = new Counter({
      name: 'sluice_webhook_intake_total',
      help: 'Webhook events offered to POST /v1/webhooks, by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    });
  }

  async onModuleInit(): Promise<void> {
    await this.redis.connect();
    this.queue = createWebhookQueue(this.redis, this.env.SLUICE_KEY_PREFIX);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * Admits one event of the key's tenant, or throws the problem to answer: 403 without the
   * check scope, 404 for an endpoint the tenant does not have, 409 disabled or an idempotency
   * conflict, 503 when Redis fails. A full queue is an answer (429), not an error.
   */
  async submit(key: ApiKeyRecord, body: WebhookRequestBody): Promise<IntakeAnswer> {
    if (!key.scopes.includes('check') && !key.scopes.includes('admin')) {
      throw new ForbiddenError('This API key lacks the check scope.');
    }
    const queue = this.queue;
    if (!queue) throw new UnavailableError('The webhook queue is not ready yet.');
    let result: AdmissionResult;
    try {
      const endpoint = await readWebhookEndpoint(
        this.redis,
        this.env.SLUICE_KEY_PREFIX,
        key.tenantId,
        body.endpoint,
      );
      if (!endpoint) {
        this.outcomes.inc({ outcome: 'not_found' });
        throw new WebhookEndpointNotFoundError(body.endpoint);
      }
      result = await admitWebhookEvent(
        this.redis,
        queue,
        this.env.SLUICE_KEY_PREFIX,
        key.tenantId,
        endpoint,
        { type: body.type, payload: body.payload, idempotencyKey: body.idempotencyKey },
      );
    } catch (error) {
      if (error instanceof WebhookEndpointNotFoundError) throw error;
      this.outcomes.inc({ outcome: 'unavailable' });
      this.logger.warn(`webhook intake failed: ${String(error)}`);
      throw new UnavailableError('The webhook queue could not be reached right now.', error);
    }
    this.outcomes.inc({ outcome: result.status.replace('-', '_') });
    switch (result.status) {
      case 'admitted':
      case 'queue-full':
        return result;
      case 'disabled':
        throw new WebhookEndpointDisabledError(body.endpoint);
      case 'idempotency-conflict':
        throw new IdempotencyConflictError(result.reason);
    }
  }
}
