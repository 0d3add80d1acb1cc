import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { HeartbeatWriter, RedisService, type WorkerBeat } from '@sluice/nest-kit';
import { ENV, type Env } from '../env';
import { serviceInfo } from '../service-info';
import { QueueWorker } from './queue-worker.base';

/**
 * This worker's heartbeat for the platform view: each BullMQ queue it consumes, whether its
 * worker runs and its jobs by state. The queue workers are found among the app's providers, so
 * a new one is reported without being listed here.
 */
@Injectable()
export class HeartbeatService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly writer: HeartbeatWriter<'worker'>;
  private readonly logger = new Logger('Heartbeat');

  constructor(@Inject(ENV) env: Env, redis: RedisService, discovery: DiscoveryService) {
    this.writer = new HeartbeatWriter({
      redis: redis.client,
      prefix: env.SLUICE_KEY_PREFIX,
      service: 'worker',
      version: serviceInfo.version,
      intervalMs: env.WORKER_HEARTBEAT_MS,
      collect: () => this.collect(discovery),
      onError: (error) => this.logger.warn(`heartbeat not written: ${String(error)}`),
    });
  }

  onApplicationBootstrap(): void {
    this.writer.start();
  }

  /** With the queue workers (which close their queues then): a queue closing is left out. */
  async onModuleDestroy(): Promise<void> {
    await this.writer.stop().catch(() => undefined);
  }

  private async collect(discovery: DiscoveryService): Promise<WorkerBeat> {
    const workers = discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is QueueWorker => instance instanceof QueueWorker);
    const queues = await Promise.all(
      workers.map(async (worker) => {
        const counts = await worker.jobCounts();
        return counts && { name: worker.queueName, running: worker.isRunning(), ...counts };
      }),
    );
    return {
      queues: queues
        .filter((queue) => queue !== undefined)
        .sort((a, b) => (a.name < b.name ? -1 : 1)),
    };
  }
}
