import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createWebhookQueue } from '@sluice/webhooks';
import { ENV, type Env } from '../env';

/**
 * The webhook queue's BullMQ handle, for replaying dead letters (they are the queue's failed
 * jobs). Opened on first use: most control-plane processes never replay anything.
 */
@Injectable()
export class WebhookQueueService implements OnApplicationShutdown {
  private queue: ReturnType<typeof createWebhookQueue> | undefined;

  constructor(@Inject(ENV) private readonly env: Env) {}

  handle(): ReturnType<typeof createWebhookQueue> {
    this.queue ??= createWebhookQueue(
      { url: this.env.REDIS_URL, maxRetriesPerRequest: null },
      this.env.SLUICE_KEY_PREFIX,
    );
    return this.queue;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
  }
}
