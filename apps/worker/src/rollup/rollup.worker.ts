import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import { Queue } from 'bullmq';
import { ENV, type Env } from '../env';
import { bullmqOptions } from '../jobs/bullmq-options';
import { QueueWorker } from '../jobs/queue-worker.base';
import { RollupService } from './rollup.service';

export const USAGE_QUEUE = 'sluice-usage';
export const ROLLUP_JOB = 'usage-rollup';
export const RETENTION_JOB = 'usage-retention';
const RETENTION_EVERY_MS = 3_600_000;
/** Finished jobs kept for inspection, per outcome. */
const KEEP_JOBS = 100;

/**
 * Runs the usage roll-up every `WORKER_USAGE_ROLLUP_INTERVAL_MS` and the `UsageMinute`
 * retention hourly, as BullMQ job schedulers: every worker process upserts the same schedulers
 * (idempotent), and each run goes to one of them.
 */
@Injectable()
export class RollupWorker extends QueueWorker implements OnApplicationBootstrap {
  private readonly queue: Queue;
  private readonly intervalMs: number;
  private closing = false;

  constructor(@Inject(ENV) env: Env, redis: RedisService, rollup: RollupService) {
    super(
      USAGE_QUEUE,
      { [ROLLUP_JOB]: () => rollup.rollUp(), [RETENTION_JOB]: () => rollup.deleteExpired() },
      bullmqOptions(env),
      redis,
    );
    this.queue = new Queue(USAGE_QUEUE, bullmqOptions(env));
    this.queue.on('error', (error) => this.logger.error(`queue error: ${error.message}`));
    this.intervalMs = env.WORKER_USAGE_ROLLUP_INTERVAL_MS;
  }

  /** Not awaited: with Redis down, the schedulers land once it is back instead of holding boot. */
  onApplicationBootstrap(): void {
    this.schedule().catch((error: unknown) => {
      if (!this.closing) this.logger.error(`could not schedule the usage jobs: ${String(error)}`);
    });
  }

  override async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await super.onModuleDestroy();
    await this.queue.close();
  }

  private async schedule(): Promise<void> {
    const opts = { removeOnComplete: KEEP_JOBS, removeOnFail: KEEP_JOBS };
    await this.queue.upsertJobScheduler(
      ROLLUP_JOB,
      { every: this.intervalMs },
      { name: ROLLUP_JOB, opts },
    );
    await this.queue.upsertJobScheduler(
      RETENTION_JOB,
      { every: RETENTION_EVERY_MS },
      { name: RETENTION_JOB, opts },
    );
  }
}
