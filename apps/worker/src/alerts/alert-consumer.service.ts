import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import { parseQuotaAlert, quotaAlertStreamKey } from '@sluice/usage';
import { admitOwnEvent, createWebhookQueue } from '@sluice/webhooks';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ENV, type Env } from '../env';
import { AlertMetrics } from './alert.metrics';
import { quotaAlertEvent } from './quota-alert-event';

/** The consumer group every worker process reads the alert stream in. */
export const ALERT_GROUP = 'sluice-worker';
/** Entries read (or taken over) at once. */
const BATCH = 100;
/** Alerts of a batch admitted at once. */
const PARALLEL = 8;
/** A read waits this long for new alerts (ms), then looks for abandoned ones. */
const BLOCK_MS = 2000;
/** After a failure (Redis down), the next try (ms). */
const RETRY_MS = 1000;

type Entry = [id: string, fields: string[] | null];

/**
 * Turns the data planes' threshold alerts into `sluice.quota.threshold` events: one per enabled
 * endpoint of the tenant, admitted like any event (the endpoint's leaky-bucket FIFO; a full one
 * misses it), then acknowledged.
 *
 * Why a Redis stream and not a BullMQ queue: the data planes add alerts from their usage flush,
 * where an XADD is one more pipelined command to one known key (a BullMQ add is a script over
 * keys of their own slot, and would put BullMQ in the data plane), `MAXLEN ~` bounds what an
 * absent worker leaves behind, and a consumer group shares the entries between worker processes
 * with at-least-once delivery: an entry a dead worker read but never acknowledged is taken over
 * (XAUTOCLAIM) after `WORKER_ALERTS_RECLAIM_MS`. Reading one twice is harmless: each endpoint's
 * admission is idempotent under the alert's id.
 */
@Injectable()
export class AlertConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AlertConsumer');
  /** Its own connection: a blocked XREADGROUP holds it. */
  private readonly blocking: Redis;
  private readonly queue: ReturnType<typeof createWebhookQueue>;
  private readonly consumer = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly stream: string;
  private readonly stop = new AbortController();
  private running: Promise<void> | undefined;
  private claimCursor = '0-0';
  private nextClaimAt = 0;
  private failing = false;

  constructor(
    @Inject(ENV) private readonly env: Env,
    private readonly redis: RedisService,
    private readonly metrics: AlertMetrics,
  ) {
    this.stream = quotaAlertStreamKey(env.SLUICE_KEY_PREFIX);
    this.blocking = new Redis(env.REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: null,
      connectionName: 'sluice-worker-alerts',
    });
    this.blocking.on('error', () => undefined);
    this.queue = createWebhookQueue(
      { url: env.REDIS_URL, maxRetriesPerRequest: null },
      env.SLUICE_KEY_PREFIX,
    );
    this.queue.on('error', (error) => this.logger.error(`queue error: ${error.message}`));
  }

  /** Not awaited: with Redis down the consumer waits for it instead of holding the boot. */
  onApplicationBootstrap(): void {
    this.running = this.run();
  }

  /** Stops reading, finishes the batch in hand, and leaves the group if it holds nothing. */
  async onModuleDestroy(): Promise<void> {
    this.stop.abort();
    // a blocked read ends at once (it rejects, and the loop sees it is stopping)
    this.blocking.disconnect();
    await this.running;
    await this.leaveGroup();
    await this.queue.close();
  }

  private get stopping(): boolean {
    return this.stop.signal.aborted;
  }

  private async run(): Promise<void> {
    let joined = false;
    while (!this.stopping) {
      try {
        if (!joined) joined = await this.joinGroup();
        const taken = await this.takeAbandoned();
        await this.handleAll(taken.length > 0 ? taken : await this.readNew());
        if (this.failing) this.logger.log('alert stream readable again');
        this.failing = false;
      } catch (error) {
        if (this.stopping) break;
        // the stream was deleted (a FLUSHALL): the group is made again
        if (String(error).includes('NOGROUP')) joined = false;
        if (!this.failing) this.logger.warn(`alerts cannot be read now: ${String(error)}`);
        this.failing = true;
        await sleep(RETRY_MS, undefined, { signal: this.stop.signal }).catch(() => undefined);
      }
    }
  }

  /** From the stream's start: alerts added before any worker ever ran are handled too. */
  private async joinGroup(): Promise<boolean> {
    try {
      await this.redis.client.xgroup('CREATE', this.stream, ALERT_GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
    return true;
  }

  /** Entries read by a consumer that went quiet for WORKER_ALERTS_RECLAIM_MS (about once a second). */
  private async takeAbandoned(): Promise<Entry[]> {
    const now = Date.now();
    if (now < this.nextClaimAt) return [];
    const reply = (await this.redis.client.xautoclaim(
      this.stream,
      ALERT_GROUP,
      this.consumer,
      this.env.WORKER_ALERTS_RECLAIM_MS,
      this.claimCursor,
      'COUNT',
      BATCH,
    )) as [string, Entry[]];
    const [cursor, entries] = reply;
    this.claimCursor = cursor;
    // the whole pending list was looked through: rest a while
    if (cursor === '0-0')
      this.nextClaimAt = now + Math.min(1000, this.env.WORKER_ALERTS_RECLAIM_MS);
    return entries;
  }

  private async readNew(): Promise<Entry[]> {
    const reply = (await this.blocking.xreadgroup(
      'GROUP',
      ALERT_GROUP,
      this.consumer,
      'COUNT',
      BATCH,
      'BLOCK',
      BLOCK_MS,
      'STREAMS',
      this.stream,
      '>',
    )) as [stream: string, entries: Entry[]][] | null;
    return reply?.[0]?.[1] ?? [];
  }

  /** Admits a batch, a few alerts at a time, and acknowledges those that are done. */
  private async handleAll(entries: readonly Entry[]): Promise<void> {
    const done: string[] = [];
    for (let start = 0; start < entries.length; start += PARALLEL) {
      const slice = entries.slice(start, start + PARALLEL);
      const outcomes = await Promise.allSettled(slice.map((entry) => this.handle(entry)));
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled' && outcome.value) done.push(slice[i]![0]);
        // a failure (Redis, the queue) leaves the entry pending: taken over later
        if (outcome.status === 'rejected') {
          this.logger.warn(`alert ${slice[i]![0]} not admitted yet: ${String(outcome.reason)}`);
        }
      });
    }
    if (done.length > 0) await this.redis.client.xack(this.stream, ALERT_GROUP, ...done);
  }

  /** True when the entry is done with (acknowledge it); false to look at it again later. */
  private async handle([id, fields]: Entry): Promise<boolean> {
    this.metrics.alertReceived();
    const alert = fields ? parseQuotaAlert(fields) : undefined;
    if (!alert) {
      this.metrics.alertDropped('invalid');
      this.logger.warn(`stream entry ${id} is not a threshold alert: acknowledged`);
      return true;
    }
    const admissions = await admitOwnEvent(
      this.redis.client,
      this.queue,
      this.env.SLUICE_KEY_PREFIX,
      alert.tenantId,
      quotaAlertEvent(alert),
    );
    if (admissions.length === 0) this.metrics.alertDropped('no_endpoint');
    let done = true;
    for (const { result } of admissions) {
      if (result.status === 'admitted') {
        if (!result.replayed) this.metrics.eventAdmitted();
      } else if (result.status === 'queue-full') {
        this.metrics.eventRefused('queue_full');
      } else if (result.status === 'idempotency-conflict') {
        // another worker is admitting this very alert (a takeover): its answer is seen later
        if (result.reason === 'in-progress') done = false;
        else this.metrics.eventRefused('conflict');
      }
    }
    return done;
  }

  /** A consumer name is per process: dropped from the group unless entries still wait on it. */
  private async leaveGroup(): Promise<void> {
    try {
      const pending = (await this.redis.client.xpending(
        this.stream,
        ALERT_GROUP,
        '-',
        '+',
        1,
        this.consumer,
      )) as unknown[];
      if (pending.length === 0) {
        await this.redis.client.xgroup('DELCONSUMER', this.stream, ALERT_GROUP, this.consumer);
      }
    } catch {
      // Redis gone: the idle consumer stays listed, harmlessly
    }
  }
}
