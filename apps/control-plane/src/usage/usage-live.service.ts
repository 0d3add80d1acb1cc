import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import { type ChangeMessage, readTenant, subscribeChanges } from '@sluice/policy';
import { addUsage, emptyUsage, readActiveMinutes, readSeconds } from '@sluice/usage';
import type { Redis } from 'ioredis';
import { ENV, type Env } from '../env';
import {
  PolicyChangeKind,
  type PolicyChangeEvent,
  type PolicyUsageSnapshot,
  type UsageUpdate,
} from './models/usage.model';
import { PushIterator } from './push-iterator';
import { toPoint, toTotals } from './usage.mapping';

/** Live usage is read and pushed this often (ms): at least every 2 s, as dashboards expect. */
export const USAGE_PUSH_INTERVAL_MS = 1000;
/** Seconds a snapshot lists one by one; its totals cover the last 60. */
export const SNAPSHOT_SECONDS = 10;
/** A topic of all the tenant's policies reloads their names at least this often (ms). */
const POLICY_NAMES_MAX_AGE_MS = 60_000;

type Listener<T> = (value: T) => void;

/** One (tenant, policy or all policies) that clients watch: read once per tick for all of them. */
interface UsageTopic {
  readonly tenantId: string;
  /** undefined: each of the tenant's published policies. */
  readonly policy: string | undefined;
  readonly listeners: Set<Listener<UsageUpdate>>;
  readonly timer: NodeJS.Timeout;
  last: UsageUpdate | undefined;
  busy: boolean;
  failing: boolean;
  /** The published policies' names and when they were read (all-policies topics only). */
  names: { list: string[]; readAt: number } | undefined;
}

/**
 * What the subscriptions push, shared by every client of this process: one Redis subscriber
 * connection on the change channel (opened at the first subscription that needs it), fanned out
 * to each tenant's listeners; and one reader per watched (tenant, policy), whatever the number
 * of clients watching it. A client that goes away releases its listener at once; the last one
 * of a topic stops its timer.
 */
@Injectable()
export class UsageLiveService implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('UsageLive');
  private readonly prefix: string;
  private readonly changeListeners = new Map<string, Set<Listener<PolicyChangeEvent>>>();
  private readonly topics = new Map<string, UsageTopic>();
  private subscriber: Redis | undefined;
  private subscription: Promise<() => Promise<void>> | undefined;
  private subscriberDown = false;

  constructor(
    private readonly redis: RedisService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
  }

  /** The tenant's policy changes from now on; resolves once the change channel is subscribed. */
  async policyChanges(tenantId: string): Promise<AsyncIterableIterator<PolicyChangeEvent>> {
    const listeners = this.changeListeners.get(tenantId) ?? new Set();
    this.changeListeners.set(tenantId, listeners);
    const iterator = new PushIterator<PolicyChangeEvent>(() => {
      listeners.delete(push);
      if (listeners.size === 0 && this.changeListeners.get(tenantId) === listeners) {
        this.changeListeners.delete(tenantId);
      }
    });
    const push = (change: PolicyChangeEvent) => iterator.push(change);
    listeners.add(push);
    try {
      await this.subscribeOnce();
    } catch (error) {
      await iterator.return();
      throw error;
    }
    return iterator;
  }

  /** A snapshot now (or the topic's latest), then one every `USAGE_PUSH_INTERVAL_MS`. */
  async usageUpdates(
    tenantId: string,
    policy: string | undefined,
  ): Promise<AsyncIterableIterator<UsageUpdate>> {
    // an all-policies topic learns of new policies from the change channel
    if (policy === undefined) await this.subscribeOnce();
    const key = `${tenantId}/${policy ?? ''}`;
    let topic = this.topics.get(key);
    if (!topic) {
      const created: UsageTopic = {
        tenantId,
        policy,
        listeners: new Set(),
        timer: setInterval(() => void this.tick(created), USAGE_PUSH_INTERVAL_MS),
        last: undefined,
        busy: false,
        failing: false,
        names: undefined,
      };
      created.timer.unref();
      this.topics.set(key, created);
      topic = created;
      void this.tick(created);
    }
    const watched = topic;
    const iterator = new PushIterator<UsageUpdate>(() => {
      watched.listeners.delete(push);
      if (watched.listeners.size === 0 && this.topics.get(key) === watched) {
        clearInterval(watched.timer);
        this.topics.delete(key);
      }
    });
    const push = (update: UsageUpdate) => iterator.push(update);
    watched.listeners.add(push);
    if (watched.last) push(watched.last);
    return iterator;
  }

  /** What is held for open subscriptions (for tests and debugging). */
  stats(): { usageTopics: number; changeListeners: number } {
    let changeListeners = 0;
    for (const listeners of this.changeListeners.values()) changeListeners += listeners.size;
    return { usageTopics: this.topics.size, changeListeners };
  }

  onModuleDestroy(): void {
    for (const topic of this.topics.values()) clearInterval(topic.timer);
    this.topics.clear();
  }

  async onApplicationShutdown(): Promise<void> {
    const subscriber = this.subscriber;
    if (!subscriber) return;
    const unsubscribe = await this.subscription?.catch(() => undefined);
    await unsubscribe?.().catch(() => undefined);
    if (subscriber.status === 'ready') await subscriber.quit().catch(() => undefined);
    subscriber.disconnect();
  }

  /** One subscriber connection and one subscription per process, retried after a failure. */
  private subscribeOnce(): Promise<() => Promise<void>> {
    if (!this.subscription) {
      const subscriber = this.redis.client.duplicate({
        connectionName: 'sluice-control-plane-changes',
      });
      subscriber.on('error', (error: Error) => {
        if (this.subscriberDown) return;
        this.subscriberDown = true;
        this.logger.warn(
          `change channel unavailable (changes are missed meanwhile): ${error.message}`,
        );
      });
      subscriber.on('ready', () => (this.subscriberDown = false));
      this.subscriber = subscriber;
      this.subscription = subscribeChanges(subscriber, this.prefix, (change) =>
        this.onChange(change),
      ).catch((error: unknown) => {
        this.subscription = undefined;
        this.subscriber = undefined;
        subscriber.disconnect();
        throw error;
      });
    }
    return this.subscription;
  }

  private onChange(change: ChangeMessage): void {
    if (change.kind === 'api-key') return;
    const event: PolicyChangeEvent = {
      tenantId: change.tenantId,
      kind: change.kind === 'tenant' ? PolicyChangeKind.PUBLISHED : PolicyChangeKind.DELETED,
      version: change.kind === 'tenant' ? change.version : null,
      receivedAt: new Date(),
    };
    for (const listener of this.changeListeners.get(change.tenantId) ?? []) listener(event);
    for (const topic of this.topics.values()) {
      if (topic.tenantId === change.tenantId) topic.names = undefined;
    }
  }

  /** Reads the topic's snapshot and pushes it; a tick still reading skips the next. */
  private async tick(topic: UsageTopic): Promise<void> {
    if (topic.busy) return;
    topic.busy = true;
    try {
      const update = await this.snapshot(topic);
      topic.last = update;
      topic.failing = false;
      for (const listener of topic.listeners) listener(update);
    } catch (error) {
      // Redis down: clients keep their last snapshot; said once per outage
      if (!topic.failing) this.logger.warn(`live usage read failed: ${String(error)}`);
      topic.failing = true;
    } finally {
      topic.busy = false;
    }
  }

  private async snapshot(topic: UsageTopic): Promise<UsageUpdate> {
    const now = Date.now();
    const nowSecond = Math.floor(now / 1000);
    const from = nowSecond - 59;
    let policies: string[];
    let active: Set<string>;
    if (topic.policy !== undefined) {
      policies = [topic.policy];
      active = new Set(policies);
    } else {
      policies = await this.policyNames(topic, now);
      // policies without usage in the last two minutes cost no read
      const minutes = await readActiveMinutes(
        this.redis.client,
        this.prefix,
        topic.tenantId,
        policies,
        Math.floor(from / 60),
        Math.floor(nowSecond / 60),
      );
      active = new Set([...minutes].filter(([, list]) => list.length > 0).map(([name]) => name));
    }
    const snapshots = await Promise.all(
      policies.map(async (policy): Promise<PolicyUsageSnapshot> => {
        const rows = active.has(policy)
          ? await readSeconds(
              this.redis.client,
              this.prefix,
              topic.tenantId,
              policy,
              from,
              nowSecond,
            )
          : Array.from({ length: 60 }, (_, i) => ({ second: from + i, ...emptyUsage() }));
        const lastMinute = emptyUsage();
        for (const row of rows) addUsage(lastMinute, row);
        return {
          policy,
          seconds: rows.slice(-SNAPSHOT_SECONDS).map((row) => toPoint(row.second * 1000, row)),
          lastMinute: toTotals(lastMinute),
        };
      }),
    );
    return { tenantId: topic.tenantId, at: new Date(now), policies: snapshots };
  }

  private async policyNames(topic: UsageTopic, now: number): Promise<string[]> {
    if (topic.names && now - topic.names.readAt < POLICY_NAMES_MAX_AGE_MS) return topic.names.list;
    const tenant = await readTenant(this.redis.client, this.prefix, topic.tenantId);
    const list = Object.keys(tenant?.policies ?? {}).sort();
    topic.names = { list, readAt: now };
    return list;
  }
}
