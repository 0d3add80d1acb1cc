import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import {
  DecisionEngine,
  engineRedisOptions,
  type EngineRuntime,
  startEngineRuntime,
  stopEngineRuntime,
  UnavailableError,
} from '@sluice/engine';
import { UsageRecorder } from '@sluice/usage';
import type { Redis, RedisOptions } from 'ioredis';
import { ENV, type Env } from '../env';

/**
 * The data plane's decision engine, embedded for the console's own checks (the playground): the
 * same policy cache, Lua and fail modes as `/v1/check`, and a usage recorder, so the console's
 * checks count in the charts and the request log exactly as a service's do. Its three Redis
 * connections are the data plane's (checks without an offline queue, the change channel, usage
 * flushes); it records no threshold alerts, which would send the tenant webhooks about scratch
 * identifiers. Connects on first use (see `ready`); stops after the HTTP server, with a last usage flush.
 */
@Injectable()
export class ConsoleEngineService implements EngineRuntime, OnApplicationShutdown {
  readonly engine: DecisionEngine;
  readonly recorder: UsageRecorder;
  private readonly logger = new Logger('ConsoleEngine');
  readonly connections: Redis[];
  private starting: Promise<void> | undefined;

  constructor(redis: RedisService, @Inject(ENV) env: Env) {
    const connect = (role: string, options: RedisOptions) => {
      const connection = redis.client.duplicate({
        ...options,
        lazyConnect: true,
        connectionName: `sluice-control-plane-${role}`,
      });
      // the app's own connection reports outages; these only must not crash on 'error'
      connection.on('error', () => undefined);
      return connection;
    };
    const commands = connect('engine', engineRedisOptions);
    const subscriber = connect('engine-changes', {});
    const usage = connect('engine-usage', { enableOfflineQueue: false });
    this.connections = [commands, subscriber, usage];
    this.recorder = new UsageRecorder({
      redis: usage,
      prefix: env.SLUICE_KEY_PREFIX,
      thresholdAlerts: false,
      onFlushError: (error) =>
        this.logger.warn(`usage flush failed (kept for the next): ${error.message}`),
    });
    this.engine = new DecisionEngine({
      redis: commands,
      subscriber,
      prefix: env.SLUICE_KEY_PREFIX,
      recorder: this.recorder,
      onError: (error) =>
        this.logger.warn(
          `Redis failed or timed out (answered by the fail mode): ${error instanceof Error ? error.message : String(error)}`,
        ),
    });
  }

  /**
   * The engine, started on first use: a control plane whose console never checks opens none of
   * these connections, and one booted while Redis is down still serves everything else.
   * `UnavailableError` when Redis cannot be reached (tried again on the next call).
   */
  async ready(): Promise<DecisionEngine> {
    this.starting ??= startEngineRuntime(this).catch((error: unknown) => {
      this.starting = undefined;
      throw new UnavailableError('The limits cannot be reached right now.', error);
    });
    await this.starting;
    return this.engine;
  }

  async onApplicationShutdown(): Promise<void> {
    const started = await this.starting?.then(
      () => true,
      () => false,
    );
    if (!started) return;
    await stopEngineRuntime(this, (error) =>
      this.logger.warn(`final usage flush failed: ${String(error)}`),
    );
  }
}
