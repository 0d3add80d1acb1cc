import { Inject, Injectable } from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import { DELIVER_JOB, WEBHOOK_QUEUE } from '@sluice/webhooks';
import type { WorkerOptions } from 'bullmq';
import { ENV, type Env } from '../env';
import { bullmqOptions } from '../jobs/bullmq-options';
import { QueueWorker } from '../jobs/queue-worker.base';
import { MAX_STALLS, WebhookDispatcher } from './webhook-dispatcher.service';

/**
 * The webhook queue's BullMQ worker: one queue for every endpoint, many deliveries at once
 * (`WORKER_WEBHOOK_CONCURRENCY`). Per-group limits being a paid BullMQ feature, shaping is done
 * with delays instead (see `WebhookDispatcher`): a job only holds a slot while it is sent, with a
 * timeout, and each endpoint at most `WORKER_WEBHOOK_MAX_IN_FLIGHT` of them. On SIGTERM the
 * base class stops taking jobs and waits for the deliveries in flight.
 */
@Injectable()
export class WebhookWorker extends QueueWorker {
  private readonly enabled: boolean;

  constructor(@Inject(ENV) env: Env, redis: RedisService, dispatcher: WebhookDispatcher) {
    const options: WorkerOptions = {
      ...bullmqOptions(env),
      concurrency: env.WORKER_WEBHOOK_CONCURRENCY,
      lockDuration: env.WORKER_WEBHOOK_LOCK_MS,
      stalledInterval: env.WORKER_WEBHOOK_STALLED_INTERVAL_MS,
      // the dispatcher dead-letters a job after MAX_STALLS itself, with its bookkeeping
      maxStalledCount: MAX_STALLS + 1,
      // the dead letters: failed jobs, kept (replayable) this long
      removeOnFail: { age: env.WORKER_WEBHOOK_DEAD_LETTER_DAYS * 86_400 },
    };
    super(WEBHOOK_QUEUE, { [DELIVER_JOB]: (job) => dispatcher.deliver(job) }, options, redis);
    this.enabled = env.SLUICE_SECRETS_KEY !== undefined;
  }

  override onModuleInit(): void {
    if (!this.enabled) {
      // unsigned deliveries are never sent: the events wait in their queues
      this.logger.warn('SLUICE_SECRETS_KEY is not set: webhook deliveries wait until it is');
      return;
    }
    super.onModuleInit();
  }
}
