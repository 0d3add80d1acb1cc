import { Inject, Injectable } from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import {
  listPublishedEndpoints,
  readQueueStats,
  readWebhookEndpoint,
  type QueueStats,
} from '@sluice/webhooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ENV, type Env } from '../env';

export type AttemptMetric = 'delivered' | 'failed' | 'dead';

interface EndpointRow extends QueueStats {
  tenantId: string;
  leakRatePerSec: number;
}

/** Gauges of one scrape share one pass over Redis, taken at most this often. */
const SNAPSHOT_MS = 1000;

/**
 * The dispatcher's /metrics. Per endpoint (labels `tenant`, `endpoint`), read from Redis at
 * scrape time so that every worker reports the same queues: depth, oldest waiting age, in
 * flight, leak rate, pause, delivered events, failed attempts and dead letters. Per process:
 * attempts by outcome and their latency, events dropped with their endpoint, rows not recorded.
 */
@Injectable()
export class WebhookMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly latency: Histogram<'outcome'>;
  private readonly dropped: Counter;
  private readonly unrecorded: Counter;
  private snapshot: { at: number; rows: Promise<EndpointRow[]> } | undefined;

  constructor(
    registry: Registry,
    private readonly redis: RedisService,
    @Inject(ENV) private readonly env: Env,
  ) {
    this.attempts = new Counter({
      name: 'sluice_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (dead: the last attempt of its run failed)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.latency = new Histogram({
      name: 'sluice_webhook_attempt_seconds',
      help: 'Time until the answer was read, or the attempt failed',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.dropped = new Counter({
      name: 'sluice_webhook_dropped_total',
      help: 'Queued events dropped because their endpoint was deleted',
      registers: [registry],
    });
    this.unrecorded = new Counter({
      name: 'sluice_webhook_unrecorded_attempts_total',
      help: 'Attempts whose WebhookDelivery row could not be written',
      registers: [registry],
    });
    const rows = () => this.rows();
    const perEndpoint = (name: string, help: string, value: (row: EndpointRow) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['tenant', 'endpoint'],
        registers: [registry],
        async collect() {
          const current = await rows();
          this.reset();
          for (const row of current) {
            this.set({ tenant: row.tenantId, endpoint: row.endpointId }, value(row));
          }
        },
      });
    perEndpoint(
      'sluice_webhook_queue_depth',
      'Events admitted, not yet delivered or dead',
      (r) => r.depth,
    );
    perEndpoint(
      'sluice_webhook_oldest_waiting_seconds',
      'Age of the oldest event not yet delivered (0 when none waits)',
      (r) => (r.oldestWaitingMs ?? 0) / 1000,
    );
    perEndpoint('sluice_webhook_in_flight', 'Deliveries in progress', (r) => r.inFlight);
    perEndpoint(
      'sluice_webhook_leak_rate',
      'Configured deliveries per second',
      (r) => r.leakRatePerSec,
    );
    perEndpoint('sluice_webhook_paused', '1 while the endpoint is paused', (r) =>
      r.pausedUntil === null ? 0 : 1,
    );
    perEndpoint(
      'sluice_webhook_delivered_events',
      'Events delivered since creation',
      (r) => r.delivered,
    );
    perEndpoint(
      'sluice_webhook_failed_attempts',
      'Failed attempts since creation',
      (r) => r.failed,
    );
    perEndpoint(
      'sluice_webhook_dead_letters',
      'Events in the dead letters (replayable)',
      (r) => r.dead,
    );
  }

  attempt(outcome: AttemptMetric, latencyMs: number): void {
    this.attempts.inc({ outcome });
    this.latency.observe({ outcome }, latencyMs / 1000);
  }

  droppedEvent(): void {
    this.dropped.inc();
  }

  unrecordedAttempt(): void {
    this.unrecorded.inc();
  }

  /** Every published endpoint's queue figures, shared by the gauges of one scrape. */
  private rows(): Promise<EndpointRow[]> {
    const now = Date.now();
    if (this.snapshot && now - this.snapshot.at < SNAPSHOT_MS) return this.snapshot.rows;
    const rows = this.readRows(now);
    this.snapshot = { at: now, rows };
    return rows;
  }

  private async readRows(now: number): Promise<EndpointRow[]> {
    const redis = this.redis.client;
    const prefix = this.env.SLUICE_KEY_PREFIX;
    const byTenant = new Map<string, string[]>();
    for (const { tenantId, endpointId } of await listPublishedEndpoints(redis, prefix)) {
      byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), endpointId]);
    }
    const rows: EndpointRow[] = [];
    for (const [tenantId, ids] of byTenant) {
      for (const stats of await readQueueStats(redis, prefix, tenantId, ids, now)) {
        const settings = await readWebhookEndpoint(redis, prefix, tenantId, stats.endpointId);
        rows.push({ ...stats, tenantId, leakRatePerSec: settings?.leakRatePerSec ?? 0 });
      }
    }
    return rows;
  }
}
