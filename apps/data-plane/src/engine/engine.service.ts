import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import {
  DecisionEngine,
  engineRedisOptions,
  type EngineRuntime,
  startEngineRuntime,
  stopEngineRuntime,
} from '@sluice/engine';
import { UsageRecorder } from '@sluice/usage';
import { Redis, type RedisOptions } from 'ioredis';
import { ENV, type Env } from '../env';
import { DataPlaneMetrics } from '../metrics/data-plane.metrics';

/** A failure is logged at most this often; the metrics count every one. */
const ERROR_LOG_INTERVAL_MS = 10_000;

/**
 * Owns the decision engine, the usage recorder and their three Redis connections: checks (no
 * offline queue, so a check never waits for a reconnect), the change channel's subscriber, and
 * usage flushes (its own connection, no offline queue and no command timeout, as the recorder
 * asks). Boot fails when Redis cannot be reached; later outages are answered by fail modes.
 * Stops in order after the HTTP server: the cache's subscription, a final usage flush, then the
 * connections.
 */
@Injectable()
export class EngineService implements EngineRuntime, OnModuleInit, OnApplicationShutdown {
  readonly engine: DecisionEngine;
  readonly recorder: UsageRecorder;
  private readonly logger = new Logger('Engine');
  readonly connections: Redis[];
  private lastErrorLogAt = 0;
  private unloggedErrors = 0;

  constructor(@Inject(ENV) env: Env, metrics: DataPlaneMetrics) {
    const onConnectionError = () => metrics.redisError('connection');
    const commands = this.connect(env, 'engine', engineRedisOptions, onConnectionError);
    const subscriber = this.connect(env, 'changes', {}, onConnectionError);
    const usage = this.connect(env, 'usage', { enableOfflineQueue: false }, onConnectionError);
    this.connections = [commands, subscriber, usage];
    this.recorder = new UsageRecorder({
      redis: usage,
      prefix: env.SLUICE_KEY_PREFIX,
      flushIntervalMs: env.DATA_PLANE_USAGE_FLUSH_MS,
      retentionSeconds: env.DATA_PLANE_USAGE_RETENTION_SECONDS,
      decisionLogMaxLen: env.DATA_PLANE_DECISION_LOG_MAX_LEN,
      allowSampleRate: env.DATA_PLANE_DECISION_LOG_ALLOW_SAMPLE_RATE,
      topK: env.DATA_PLANE_USAGE_TOP_K,
      maxPendingEntries: env.DATA_PLANE_USAGE_MAX_PENDING,
      onFlushError: (error) => {
        metrics.redisError('usage');
        this.logError('usage flush failed (counts kept for the next flush)', error);
      },
    });
    this.engine = new DecisionEngine({
      redis: commands,
      subscriber,
      prefix: env.SLUICE_KEY_PREFIX,
      recorder: this.recorder,
      cacheTuning: {
        keyRecheckMs: env.DATA_PLANE_KEY_RECHECK_MS,
        tenantRecheckMs: env.DATA_PLANE_TENANT_RECHECK_MS,
        negativeKeyTtlMs: env.DATA_PLANE_NEGATIVE_KEY_TTL_MS,
        maxKeys: env.DATA_PLANE_MAX_CACHED_KEYS,
        maxUnknownKeys: env.DATA_PLANE_MAX_CACHED_UNKNOWN_KEYS,
        idleMs: env.DATA_PLANE_CACHE_IDLE_MS,
      },
      breaker: {
        failureThreshold: env.DATA_PLANE_BREAKER_FAILURES,
        openMs: env.DATA_PLANE_BREAKER_OPEN_MS,
      },
      localLimiter: { maxKeys: env.DATA_PLANE_LOCAL_MAX_KEYS },
      onError: (error) => {
        metrics.redisError('engine');
        this.logError('Redis failed or timed out (checks answered by their fail mode)', error);
      },
    });
    metrics.readFrom({
      usage: () => this.recorder.stats(),
      cache: () => this.engine.cache.stats(),
      circuits: () => this.engine.breakers.stats(),
    });
  }

  onModuleInit(): Promise<void> {
    return startEngineRuntime(this);
  }

  onApplicationShutdown(): Promise<void> {
    return stopEngineRuntime(this, (error) =>
      this.logger.warn(`final usage flush failed: ${String(error)}`),
    );
  }

  private connect(env: Env, role: string, options: RedisOptions, onError: () => void): Redis {
    const connection = new Redis(env.REDIS_URL, {
      ...options,
      lazyConnect: true,
      connectionName: `sluice-data-plane-${role}`,
    });
    // ioredis retries every few seconds while Redis is down: report an outage once
    let down = false;
    connection.on('error', (error: Error) => {
      onError();
      if (down) return;
      down = true;
      this.logger.warn(`Redis (${role}) unavailable: ${error.message}`);
    });
    connection.on('ready', () => {
      if (!down) return;
      down = false;
      this.logger.log(`Redis (${role}) reachable again`);
    });
    return connection;
  }

  private logError(context: string, error: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLogAt < ERROR_LOG_INTERVAL_MS) {
      this.unloggedErrors += 1;
      return;
    }
    const more =
      this.unloggedErrors > 0 ? ` (${this.unloggedErrors} more since the last line)` : '';
    this.lastErrorLogAt = now;
    this.unloggedErrors = 0;
    this.logger.warn(
      `${context}: ${error instanceof Error ? error.message : String(error)}${more}`,
    );
  }
}
