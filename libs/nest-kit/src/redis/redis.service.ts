import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { REDIS_MODULE_OPTIONS, type RedisModuleOptions } from './redis.options';

/** The app's one Redis connection; closed after the HTTP server stops. */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  readonly client: Redis;
  private readonly logger = new Logger(RedisService.name);
  private outageReported = false;

  constructor(@Inject(REDIS_MODULE_OPTIONS) options: RedisModuleOptions) {
    // One retry, then queued commands fail instead of waiting for a reconnect forever.
    this.client = new Redis(options.url, { maxRetriesPerRequest: 1 });
    // ioredis reconnects every few seconds while Redis is down: report an outage once.
    this.client.on('error', (error: Error) => {
      if (this.outageReported) return;
      this.outageReported = true;
      this.logger.warn(`Redis unavailable: ${error.message}`);
    });
    this.client.on('ready', () => {
      if (!this.outageReported) return;
      this.outageReported = false;
      this.logger.log('Redis reachable again');
    });
  }

  /** Whether Redis answers PING within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    const timer = new AbortController();
    try {
      return await Promise.race([
        this.client.ping().then(() => true),
        sleep(timeoutMs, false, { signal: timer.signal }),
      ]);
    } catch {
      return false;
    } finally {
      timer.abort();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    // QUIT needs a live connection to be answered; without one, stop reconnecting instead.
    if (this.client.status !== 'ready') {
      this.client.disconnect();
      return;
    }
    // QUIT resolves on Redis' reply; the socket closes a moment later.
    await Promise.all([once(this.client, 'end'), this.client.quit()]);
  }
}
