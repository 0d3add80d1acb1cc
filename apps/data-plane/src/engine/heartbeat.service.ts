import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type DataPlaneBeat, HeartbeatWriter } from '@sluice/nest-kit';
import { ENV, type Env } from '../env';
import { DataPlaneMetrics } from '../metrics/data-plane.metrics';
import { serviceInfo } from '../service-info';
import { EngineService } from './engine.service';

/** Tenant versions one beat lists at most (the most recently used tenants). */
const MAX_REPORTED_VERSIONS = 500;

/**
 * This data plane's heartbeat for the platform view: decisions and their rate, the Redis
 * connections and clock, open circuits, the cache (with the versions it enforces) and pending
 * usage. Written on the usage connection (no offline queue: a beat during an outage fails at
 * once), removed before the connections close.
 */
@Injectable()
export class HeartbeatService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly writer: HeartbeatWriter<'data-plane'>;
  private readonly logger = new Logger('Heartbeat');
  private previous: { at: number; allowed: number; denied: number } | undefined;

  constructor(@Inject(ENV) env: Env, engine: EngineService, metrics: DataPlaneMetrics) {
    const usage = engine.connections[2];
    if (!usage) throw new Error('the engine has no usage connection');
    this.writer = new HeartbeatWriter({
      redis: usage,
      prefix: env.SLUICE_KEY_PREFIX,
      service: 'data-plane',
      version: serviceInfo.version,
      intervalMs: env.DATA_PLANE_HEARTBEAT_MS,
      collect: (roundTripMs) => this.collect(engine, metrics, roundTripMs),
      onError: (error) => this.logger.warn(`heartbeat not written: ${String(error)}`),
    });
  }

  onApplicationBootstrap(): void {
    this.writer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.stop().catch(() => undefined);
  }

  private collect(
    engine: EngineService,
    metrics: DataPlaneMetrics,
    roundTripMs: number,
  ): DataPlaneBeat {
    const now = performance.now();
    const { allowed, denied } = metrics.decisionTotals;
    const previous = this.previous;
    this.previous = { at: now, allowed, denied };
    const seconds = previous ? (now - previous.at) / 1000 : 0;
    const rate = (delta: number) => (seconds > 0 ? round(delta / seconds) : 0);
    const cache = engine.engine.cache.stats();
    const { versions, omitted } = engine.engine.cache.versions(MAX_REPORTED_VERSIONS);
    const usage = engine.recorder.stats();
    return {
      decisions: { allowed, denied },
      perSecond: {
        checks: rate(allowed + denied - (previous ? previous.allowed + previous.denied : 0)),
        denied: rate(denied - (previous?.denied ?? 0)),
      },
      redis: {
        connections: Object.fromEntries(
          engine.connections.map((connection) => [
            (connection.options.connectionName ?? '').replace('sluice-data-plane-', ''),
            connection.status,
          ]),
        ),
        roundTripMs: round(roundTripMs),
        clockUncertaintyMs:
          engine.engine.redisClock.uncertaintyMs === undefined
            ? null
            : round(engine.engine.redisClock.uncertaintyMs),
        openCircuits: engine.engine.breakers.stats().open,
      },
      cache: {
        tenants: cache.tenants.entries,
        keys: cache.keys.entries,
        versions: Object.fromEntries(versions),
        versionsOmitted: omitted,
      },
      usage: { pendingEntries: usage.pendingEntries, flushFailures: usage.flushFailures },
    };
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
