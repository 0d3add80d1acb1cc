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
import { AppError } from '../graphql/app-error';
import {
  PolicyChangeKind,
  type PolicyChangeEvent,
  type PolicyUsageSnapshot,
  type UsageUpdate,
} from './models/usage.model';
import { PushIterator } from '../live/push-iterator';
import { toPoint, toTotals } from './usage.mapping';

/** Live usage is read and pushed this often (ms): at least every 2 s, as dashboards expect. */
export const USAGE_PUSH_INTERVAL_MS = 1000;
/** Seconds a snapshot lists one by one; its totals cover the last 60. */
export const SNAPSHOT_SECONDS = 10;
/** A topic of all the tenant's policies reloads their names at least this often (ms). */
const POLICY_NAMES_MAX_AGE_MS = 60_000;

type Listener<T> = (value: T) => void;

/** One client's view of a tenant's usage: one policy, or (undefined) each published one. */
interface UsageListener {
  readonly policy: string | undefined;
  readonly push: Listener<UsageUpdate>;
}

/** A tenant whose usage clients watch: read once per tick for all of them, whatever they watch. */
interface UsageTopic {
  readonly tenantId: string;
  readonly listeners: Set<UsageListener>;
  readonly timer: NodeJS.Timeout;
  /** The latest snapshot of every policy read in it. */
  last: { at: Date; policies: Map<string, PolicyUsageSnapshot> } | undefined;
  busy: boolean;
  failing: boolean;
  /** The published policies' names and when they were read. */
  names: { list: string[]; readAt: number } | undefined;
}

/**
 * What the subscriptions push, shared by every client of this process: one Redis subscriber
 * connection on the change channel (opened at the first subscription), fanned out to each
 * tenant's listeners; and one reader per watched tenant, whatever the number of clients and the
 * policies they watch. Each tick it asks which policies had usage in the last two minutes (one
 * command per minute) and reads the seconds of those only; an idle policy costs nothing more.
 * A client that goes away releases its listener at once; the last one of a tenant stops its
 * timer.
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
  /** Policies whose seconds were read, since the start (idle ones are not). */
  private policyReads = 0;

  constructor(
    private readonly redis: RedisService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
  }

  /** The tenant's policy changes from now on; resolves once the change channel is subscribed. */
  async policyChanges(tenantId: string): Promise<PushIterator<PolicyChangeEvent>> {
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

  /**
   * A snapshot now (or the topic's latest), then one every `USAGE_PUSH_INTERVAL_MS`. A named
   * policy must be one the tenant has published (NOT_FOUND otherwise).
   */
  async usageUpdates(
    tenantId: string,
    policy: string | undefined,
  ): Promise<PushIterator<UsageUpdate>> {
    // the topic learns of new policies from the change channel
    await this.subscribeOnce();
    let topic = this.topics.get(tenantId);
    if (!topic) {
      const created: UsageTopic = {
        tenantId,
        listeners: new Set(),
        timer: setInterval(() => void this.tick(created), USAGE_PUSH_INTERVAL_MS),
        last: undefined,
        busy: false,
        failing: false,
        names: undefined,
      };
      created.timer.unref();
      this.topics.set(tenantId, created);
      topic = created;
    }
    const watched = topic;
    const release = () => {
      watched.listeners.delete(listener);
      if (watched.listeners.size === 0 && this.topics.get(tenantId) === watched) {
        clearInterval(watched.timer);
        this.topics.delete(tenantId);
      }
    };
    const iterator = new PushIterator<UsageUpdate>(release);
    const listener: UsageListener = { policy, push: (update) => iterator.push(update) };
    watched.listeners.add(listener);
    try {
      if (policy !== undefined) {
        const names = await this.policyNames(watched, Date.now());
        if (!names.includes(policy)) {
          throw AppError.notFound(`The tenant has no published policy named "${policy}".`);
        }
      }
    } catch (error) {
      await iterator.return();
      throw error;
    }
    const last = watched.last && this.updateFor(watched, listener, watched.last);
    if (last) listener.push(last);
    else void this.tick(watched);
    return iterator;
  }

  /** What is held for open subscriptions (for tests and debugging). */
  stats(): { usageTopics: number; changeListeners: number; policyReads: number } {
    let changeListeners = 0;
    for (const listeners of this.changeListeners.values()) changeListeners += listeners.size;
    return { usageTopics: this.topics.size, changeListeners, policyReads: this.policyReads };
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
      const last = await this.snapshot(topic);
      topic.last = last;
      topic.failing = false;
      for (const listener of topic.listeners) {
        const update = this.updateFor(topic, listener, last);
        if (update) listener.push(update);
      }
    } catch (error) {
      // Redis down: clients keep their last snapshot; said once per outage
      if (!topic.failing) this.logger.warn(`live usage read failed: ${String(error)}`);
      topic.failing = true;
    } finally {
      topic.busy = false;
    }
  }

  /** What `listener` is sent of a snapshot; undefined when the snapshot lacks its policy. */
  private updateFor(
    topic: UsageTopic,
    listener: UsageListener,
    last: NonNullable<UsageTopic['last']>,
  ): UsageUpdate | undefined {
    if (listener.policy === undefined) {
      return { tenantId: topic.tenantId, at: last.at, policies: [...last.policies.values()] };
    }
    const snapshot = last.policies.get(listener.policy);
    return snapshot && { tenantId: topic.tenantId, at: last.at, policies: [snapshot] };
  }

  private async snapshot(topic: UsageTopic): Promise<NonNullable<UsageTopic['last']>> {
    const now = Date.now();
    const nowSecond = Math.floor(now / 1000);
    const from = nowSecond - 59;
    const published = await this.policyNames(topic, now);
    const watched = new Set<string>();
    for (const listener of topic.listeners) {
      if (listener.policy === undefined) for (const name of published) watched.add(name);
      else watched.add(listener.policy);
    }
    const policies = [...watched].sort();
    // policies without usage in the last two minutes cost no read
    const minutes = await readActiveMinutes(
      this.redis.client,
      this.prefix,
      topic.tenantId,
      policies,
      Math.floor(from / 60),
      Math.floor(nowSecond / 60),
    );
    const snapshots = await Promise.all(
      policies.map(async (policy): Promise<PolicyUsageSnapshot> => {
        const active = (minutes.get(policy)?.length ?? 0) > 0;
        if (active) this.policyReads += 1;
        const rows = active
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
    return {
      at: new Date(now),
      policies: new Map(snapshots.map((snapshot) => [snapshot.policy, snapshot])),
    };
  }

  private async policyNames(topic: UsageTopic, now: number): Promise<string[]> {
    if (topic.names && now - topic.names.readAt < POLICY_NAMES_MAX_AGE_MS) return topic.names.list;
    const tenant = await readTenant(this.redis.client, this.prefix, topic.tenantId);
    const list = Object.keys(tenant?.policies ?? {}).sort();
    topic.names = { list, readAt: now };
    return list;
  }
}
