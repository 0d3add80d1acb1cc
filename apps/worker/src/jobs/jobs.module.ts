import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Gauge, Registry } from 'prom-client';
import { HeartbeatService } from './heartbeat.service';
import type { QueueWorker } from './queue-worker.base';
import { SystemWorker } from './system.worker';

@Module({
  imports: [DiscoveryModule],
  providers: [
    SystemWorker,
    HeartbeatService,
    {
      // Nothing injects the gauge: creating it registers it; it reads the workers at scrape time.
      provide: 'WORKER_RUNNING_GAUGE',
      inject: [Registry, SystemWorker],
      useFactory: (registry: Registry, ...workers: QueueWorker[]) =>
        new Gauge({
          name: 'sluice_worker_running',
          help: '1 while the BullMQ worker of the queue is running, else 0',
          labelNames: ['queue'],
          registers: [registry],
          collect() {
            for (const worker of workers) {
              this.set({ queue: worker.queueName }, worker.isRunning() ? 1 : 0);
            }
          },
        }),
    },
  ],
})
export class JobsModule {}
