import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { RedisService } from '@sluice/nest-kit';
import type { BullmqOptions } from './bullmq-options';

const closePingTimeoutMs = 1000;

export type JobHandler = (job: Job) => Promise<unknown>;

/**
 * One BullMQ `Worker` on one queue, tied to the Nest lifecycle: it starts with the module and,
 * on shutdown, stops taking jobs and waits for the ones in flight. Jobs are dispatched by name.
 */
export abstract class QueueWorker implements OnModuleInit, OnModuleDestroy {
  protected readonly logger: Logger;
  private worker: Worker | undefined;
  /** For counts only, on the app's shared connection (no blocking commands). */
  private counter: Queue | undefined;
  private shuttingDown = false;

  protected constructor(
    readonly queueName: string,
    private readonly handlers: Readonly<Record<string, JobHandler>>,
    private readonly options: BullmqOptions,
    private readonly redis: RedisService,
  ) {
    this.logger = new Logger(`${new.target.name}(${queueName})`);
  }

  onModuleInit(): void {
    this.worker = new Worker(this.queueName, (job) => this.dispatch(job), this.options);
    // Without a listener an 'error' event (e.g. Redis down) would crash the process.
    this.worker.on('error', (error) => this.logger.error(`worker error: ${error.message}`));
    this.worker.on('failed', (job, error) =>
      this.logger.warn(`job ${job?.name ?? '?'} (${job?.id ?? '?'}) failed: ${error.message}`),
    );
  }

  isRunning(): boolean {
    return this.worker?.isRunning() ?? false;
  }

  /** The queue's jobs by state now (for the worker's heartbeat); undefined once it is closing. */
  async jobCounts(): Promise<
    Record<'waiting' | 'active' | 'delayed' | 'failed', number> | undefined
  > {
    if (this.shuttingDown) return undefined;
    this.counter ??= new Queue(this.queueName, {
      connection: this.redis.client,
      prefix: this.options.prefix,
    });
    const counts = await this.counter.getJobCounts('waiting', 'active', 'delayed', 'failed');
    return {
      waiting: counts['waiting'] ?? 0,
      active: counts['active'] ?? 0,
      delayed: counts['delayed'] ?? 0,
      failed: counts['failed'] ?? 0,
    };
  }

  async onModuleDestroy(): Promise<void> {
    this.shuttingDown = true;
    // closing the counter leaves the shared connection open (BullMQ closes only its own)
    await this.counter?.close();
    if (!this.worker) return;
    // A graceful close never resolves while Redis is unreachable (taskforcesh/bullmq#4656), and
    // jobs in flight could not record their outcome then anyway: close by force in that case.
    const reachable = await this.redis.ping(closePingTimeoutMs);
    if (!reachable) {
      this.logger.warn('Redis unreachable: closing without waiting for jobs in flight');
    }
    await this.worker.close(!reachable);
  }

  private async dispatch(job: Job): Promise<unknown> {
    const handler = this.handlers[job.name];
    // Unrecoverable: retrying cannot make an unknown job name known.
    if (!handler) {
      throw new UnrecoverableError(`no handler for job "${job.name}" on queue "${this.queueName}"`);
    }
    return handler(job);
  }
}
