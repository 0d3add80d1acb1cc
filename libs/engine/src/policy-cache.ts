import type { RedisLike } from '@sluice/algorithms';
import {
  hashApiKey,
  readApiKey,
  readTenant,
  readTenantVersions,
  subscribeChanges,
  type ApiKeyRecord,
  type ChangeMessage,
  type CompiledPolicy,
  type CompiledTenant,
} from '@sluice/policy';
import { indexOverrides, type OverrideIndex } from './overrides';

/** A compiled policy with what the hot path needs precomputed. */
export interface CachedPolicy {
  policy: CompiledPolicy;
  overrides: OverrideIndex;
}

export interface CachedTenant {
  tenant: CompiledTenant;
  /** By name (a Map, so names like `constructor` are just names). */
  policies: Map<string, CachedPolicy>;
  /** The same by policy id, as reservation and lease ids name them. */
  policiesById: Map<string, CachedPolicy>;
}

export interface PolicyCacheTuning {
  /** Re-read every cached key this often (default 1000 ms): a lost revocation costs at most that. */
  keyRecheckMs?: number;
  /** Compare every cached tenant's version this often (default 2000 ms). */
  tenantRecheckMs?: number;
  /** How long an unknown key stays known as unknown (default and at most 1000 ms). */
  negativeKeyTtlMs?: number;
  /** Most known keys cached; beyond it, keys not used lately go first (default 10,000). */
  maxKeys?: number;
  /**
   * Most unknown keys remembered, apart from `maxKeys` so that unknown tokens never push a valid
   * key out; the oldest goes first beyond it (default 1,000).
   */
  maxUnknownKeys?: number;
  /** Entries unused this long are dropped at the next re-check (default 5 minutes). */
  idleMs?: number;
}

export interface PolicyCacheOptions extends PolicyCacheTuning {
  /** Reads tenants and keys. */
  redis: RedisLike;
  /** A connection dedicated to the change channel. */
  subscriber: RedisLike;
  prefix: string;
  clock?: () => number;
  /** Background failures (a re-check, a refresh after a message); the cache keeps serving. */
  onError?: (error: unknown) => void;
}

interface Entry<T> {
  value: T;
  usedAt: number;
}

interface KeyEntry extends Entry<ApiKeyRecord> {
  /** The secret that last authenticated with this record: forgotten with the entry. */
  secret?: string;
  /** Used since it was cached or last spared by an eviction (see `makeRoomForKey`). */
  usedAgain: boolean;
}

/** One cache's counters since the process started (and its size now). */
export interface CacheCounters {
  /** Lookups answered from memory (a known absence included). */
  hits: number;
  /** Lookups that waited for a read from Redis (started or already in flight). */
  misses: number;
  /** Reads from Redis that fill the cache: misses, and refreshes after an invalidation. */
  loads: number;
  /** Entries dropped or refreshed because a change message said so. */
  invalidatedByMessage: number;
  /** Entries dropped or refreshed because a re-check found them changed (a lost message). */
  invalidatedByRecheck: number;
  /** Entries held now (for keys, unknown ones included). */
  entries: number;
}

/** What `PolicyCache.stats()` reports, for metrics. */
export interface PolicyCacheStats {
  tenants: CacheCounters;
  keys: CacheCounters;
}

const zeroCounters = (): Omit<CacheCounters, 'entries'> => ({
  hits: 0,
  misses: 0,
  loads: 0,
  invalidatedByMessage: 0,
  invalidatedByRecheck: 0,
});

/**
 * Tenants and API keys in process, filled from Redis on a miss with one read however many
 * checks miss at once, invalidated by the change channel and re-validated in the background
 * (versions for tenants, records for keys) in case a message was lost. A warm lookup is a Map
 * read: no Redis call, and for a key asked by its secret, no hashing either (the secret is kept
 * beside its cached record, and forgotten with it: revoked, expired, idle or evicted).
 *
 * Keys with a record are evicted by recent use; unknown keys are remembered apart,
 * in a smaller space of their own, so a flood of random bearer tokens costs Redis reads but
 * never pushes a valid key out (which, in a Redis outage, would turn its checks into 503s).
 */
export class PolicyCache {
  private readonly redis: RedisLike;
  private readonly subscriber: RedisLike;
  private readonly prefix: string;
  private readonly clock: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly keyRecheckMs: number;
  private readonly tenantRecheckMs: number;
  private readonly negativeKeyTtlMs: number;
  private readonly maxKeys: number;
  private readonly maxUnknownKeys: number;
  private readonly idleMs: number;

  private readonly tenants = new Map<string, Entry<CachedTenant | undefined>>();
  private readonly tenantLoads = new Map<string, Promise<CachedTenant | undefined>>();
  /** Keys with a record, in the order they were cached or last spared by an eviction. */
  private readonly keys = new Map<string, KeyEntry>();
  /** Unknown keys → until when they are known as unknown; oldest first (one TTL for all). */
  private readonly unknownKeys = new Map<string, number>();
  private readonly keyLoads = new Map<string, Promise<ApiKeyRecord | undefined>>();
  /** Secret → hash, for the keys in `keys` with a record (see `KeyEntry.secret`). */
  private readonly hashBySecret = new Map<string, string>();
  private readonly tenantCounters = zeroCounters();
  private readonly keyCounters = zeroCounters();
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => Promise<void>) | undefined;
  private readonly onReconnect = () => {
    // messages sent while the subscriber was away are lost: re-check everything now
    void this.recheckTenants();
    void this.recheckKeys();
  };
  private rechecking = { tenants: false, keys: false };

  constructor(options: PolicyCacheOptions) {
    this.redis = options.redis;
    this.subscriber = options.subscriber;
    this.prefix = options.prefix;
    this.clock = options.clock ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
    this.keyRecheckMs = positive('keyRecheckMs', options.keyRecheckMs ?? 1000);
    this.tenantRecheckMs = positive('tenantRecheckMs', options.tenantRecheckMs ?? 2000);
    this.negativeKeyTtlMs = positive('negativeKeyTtlMs', options.negativeKeyTtlMs ?? 1000);
    if (this.negativeKeyTtlMs > 1000) throw new RangeError('negativeKeyTtlMs must be at most 1000');
    this.maxKeys = positive('maxKeys', options.maxKeys ?? 10_000);
    this.maxUnknownKeys = positive('maxUnknownKeys', options.maxUnknownKeys ?? 1000);
    this.idleMs = positive('idleMs', options.idleMs ?? 300_000);
  }

  /** Subscribes to the change channel and starts the re-checks; resolves once subscribed. */
  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = await subscribeChanges(this.subscriber, this.prefix, (change) =>
      this.apply(change),
    );
    this.subscriber.on('ready', this.onReconnect);
    this.timers = [
      setInterval(() => void this.recheckKeys(), this.keyRecheckMs),
      setInterval(() => void this.recheckTenants(), this.tenantRecheckMs),
    ];
    for (const timer of this.timers) timer.unref();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.subscriber.off('ready', this.onReconnect);
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.().catch(this.onError);
  }

  /** The tenant's compiled policies, undefined when none are published. */
  tenant(tenantId: string): Promise<CachedTenant | undefined> {
    const entry = this.tenants.get(tenantId);
    if (entry) {
      this.tenantCounters.hits += 1;
      entry.usedAt = this.clock();
      return Promise.resolve(entry.value);
    }
    this.tenantCounters.misses += 1;
    return this.loadTenant(tenantId);
  }

  /** `tenant()` without waiting, when it is cached with policies; else undefined (ask `tenant`). */
  cachedTenant(tenantId: string): CachedTenant | undefined {
    const entry = this.tenants.get(tenantId);
    if (!entry?.value) return undefined;
    this.tenantCounters.hits += 1;
    entry.usedAt = this.clock();
    return entry.value;
  }

  /** The key's record by its SHA-256 hex, undefined when unknown or revoked. */
  apiKey(hash: string): Promise<ApiKeyRecord | undefined> {
    const entry = this.keys.get(hash);
    if (entry) {
      this.keyCounters.hits += 1;
      this.used(entry);
      return Promise.resolve(entry.value);
    }
    if ((this.unknownKeys.get(hash) ?? 0) > this.clock()) {
      this.keyCounters.hits += 1;
      return Promise.resolve(undefined);
    }
    this.keyCounters.misses += 1;
    return this.loadKey(hash);
  }

  /** `apiKey()` of a bearer secret: hashed unless its record is cached. */
  async apiKeyBySecret(secret: string): Promise<ApiKeyRecord | undefined> {
    const cached = this.cachedApiKeyBySecret(secret);
    if (cached) return cached;
    const hash = hashApiKey(secret);
    const record = await this.apiKey(hash);
    const entry = this.keys.get(hash);
    // the entry a load cached (not one it was superseded by an invalidation before caching)
    if (record && entry?.value === record && entry.secret === undefined) {
      entry.secret = secret;
      this.hashBySecret.set(secret, hash);
    }
    return record;
  }

  /**
   * `apiKeyBySecret()` without waiting or hashing, when the key's record is cached and was
   * looked up by this secret before; else undefined (ask `apiKeyBySecret`).
   */
  cachedApiKeyBySecret(secret: string): ApiKeyRecord | undefined {
    const hash = this.hashBySecret.get(secret);
    if (hash === undefined) return undefined;
    // records do not expire in the cache (the record's own expiry is the caller's)
    const entry = this.keys.get(hash);
    if (!entry) return undefined;
    this.keyCounters.hits += 1;
    this.used(entry);
    return entry.value;
  }

  stats(): PolicyCacheStats {
    return {
      tenants: { ...this.tenantCounters, entries: this.tenants.size },
      keys: { ...this.keyCounters, entries: this.keys.size + this.unknownKeys.size },
    };
  }

  /**
   * The versions of the cached tenants, the most recently used first, at most `limit` of them
   * (for heartbeats: which policies this process enforces now).
   */
  versions(limit: number): { versions: Map<string, number>; omitted: number } {
    const cached = [...this.tenants].filter(([, entry]) => entry.value !== undefined);
    cached.sort(([, a], [, b]) => b.usedAt - a.usedAt);
    const versions = new Map<string, number>();
    for (const [id, entry] of cached.slice(0, limit)) {
      if (entry.value) versions.set(id, entry.value.tenant.version);
    }
    return { versions, omitted: Math.max(0, cached.length - limit) };
  }

  /** Re-reads the version of every cached tenant and refreshes those that changed. */
  async recheckTenants(): Promise<void> {
    if (this.rechecking.tenants) return;
    this.rechecking.tenants = true;
    try {
      const idleSince = this.clock() - this.idleMs;
      for (const [id, entry] of this.tenants) if (entry.usedAt < idleSince) this.tenants.delete(id);
      const ids = [...this.tenants.keys()];
      if (ids.length === 0) return;
      const versions = await readTenantVersions(this.redis, this.prefix, ids);
      for (const [id, version] of versions) {
        const cached = this.tenants.get(id);
        if (cached && cached.value?.tenant.version !== version) {
          this.tenantCounters.invalidatedByRecheck += 1;
          this.refreshTenant(id);
        }
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.rechecking.tenants = false;
    }
  }

  /** Re-reads every cached key record: a revocation whose message was lost still lands. */
  async recheckKeys(): Promise<void> {
    if (this.rechecking.keys) return;
    this.rechecking.keys = true;
    try {
      const now = this.clock();
      for (const [hash, until] of this.unknownKeys) if (until <= now) this.unknownKeys.delete(hash);
      const cached: [string, ApiKeyRecord][] = [];
      for (const [hash, entry] of this.keys) {
        if (entry.usedAt < now - this.idleMs) this.dropKey(hash);
        else cached.push([hash, entry.value]);
      }
      await Promise.all(
        cached.map(async ([hash, record]) => {
          let current: ApiKeyRecord | undefined;
          try {
            current = await readApiKey(this.redis, this.prefix, hash);
          } catch (error) {
            // unreadable now (Redis down, or a corrupt record): keep serving what was valid
            this.onError(error);
            return;
          }
          const entry = this.keys.get(hash);
          // a message may have replaced the entry meanwhile: only judge the record we read for
          if (entry?.value !== record) return;
          if (!current) {
            this.keyCounters.invalidatedByRecheck += 1;
            this.dropKey(hash);
          } else if (JSON.stringify(current) !== JSON.stringify(record)) {
            this.keyCounters.invalidatedByRecheck += 1;
            entry.value = current;
          }
        }),
      );
    } finally {
      this.rechecking.keys = false;
    }
  }

  private apply(change: ChangeMessage): void {
    switch (change.kind) {
      case 'tenant': {
        const cached = this.tenants.get(change.tenantId);
        // only tenants this process uses are refreshed (others load on their first check); a
        // load in flight may have read the previous version, so it is started again
        const stale = cached
          ? (cached.value?.tenant.version ?? 0) < change.version
          : this.tenantLoads.has(change.tenantId);
        if (cached && stale) this.tenantCounters.invalidatedByMessage += 1;
        if (stale) this.refreshTenant(change.tenantId);
        return;
      }
      case 'tenant-deleted':
        if (this.tenants.delete(change.tenantId)) this.tenantCounters.invalidatedByMessage += 1;
        this.tenantLoads.delete(change.tenantId);
        return;
      case 'api-key': {
        const dropped = this.dropKey(change.hash);
        if (this.unknownKeys.delete(change.hash) || dropped) {
          this.keyCounters.invalidatedByMessage += 1;
        }
        this.keyLoads.delete(change.hash);
        return;
      }
    }
  }

  /** Drops the entry and starts a load that checks arriving meanwhile will share. */
  private refreshTenant(tenantId: string): void {
    this.tenants.delete(tenantId);
    this.tenantLoads.delete(tenantId);
    this.loadTenant(tenantId).catch(this.onError);
  }

  /**
   * One read per tenant at a time. A load that was superseded (an invalidation arrived while it
   * was in flight) still answers its callers but is not cached: it may predate the change.
   */
  private loadTenant(tenantId: string): Promise<CachedTenant | undefined> {
    const pending = this.tenantLoads.get(tenantId);
    if (pending) return pending;
    this.tenantCounters.loads += 1;
    const load: Promise<CachedTenant | undefined> = readTenant(this.redis, this.prefix, tenantId)
      .then((tenant) => {
        const value = tenant && cacheTenant(tenant);
        if (this.tenantLoads.get(tenantId) === load) {
          this.tenantLoads.delete(tenantId);
          this.tenants.set(tenantId, { value, usedAt: this.clock() });
        }
        return value;
      })
      .catch((error: unknown) => {
        if (this.tenantLoads.get(tenantId) === load) this.tenantLoads.delete(tenantId);
        throw error;
      });
    this.tenantLoads.set(tenantId, load);
    return load;
  }

  private loadKey(hash: string): Promise<ApiKeyRecord | undefined> {
    const pending = this.keyLoads.get(hash);
    if (pending) return pending;
    this.keyCounters.loads += 1;
    const load: Promise<ApiKeyRecord | undefined> = readApiKey(this.redis, this.prefix, hash)
      .then((record) => {
        if (this.keyLoads.get(hash) === load) {
          this.keyLoads.delete(hash);
          this.dropKey(hash);
          this.unknownKeys.delete(hash);
          const now = this.clock();
          if (record) {
            this.makeRoomForKey();
            this.keys.set(hash, { value: record, usedAt: now, usedAgain: false });
          } else {
            this.unknownKeys.set(hash, now + this.negativeKeyTtlMs);
            for (const oldest of this.unknownKeys.keys()) {
              if (this.unknownKeys.size <= this.maxUnknownKeys) break;
              this.unknownKeys.delete(oldest);
            }
          }
        }
        return record;
      })
      .catch((error: unknown) => {
        if (this.keyLoads.get(hash) === load) this.keyLoads.delete(hash);
        throw error;
      });
    this.keyLoads.set(hash, load);
    return load;
  }

  /** A use: a field write, no Map change (see `makeRoomForKey`). */
  private used(entry: KeyEntry): void {
    entry.usedAt = this.clock();
    entry.usedAgain = true;
  }

  /**
   * Before a key is cached at `maxKeys`, evicts one by recent use with a second chance (CLOCK,
   * an approximation of least recently used): from the oldest, an entry used since it was cached
   * or last spared is spared again (moved to the end), the first that was not is dropped; when
   * all were, the oldest is, once each was spared. Each move is paid for by a use, and a use is a
   * field write: re-inserting entries on every use instead (exact LRU) keeps a hot key's deleted
   * copies in V8's bucket chain until the Map is rehashed, measured at 30 to 58 µs per lookup of
   * one hot key among 10,000.
   */
  private makeRoomForKey(): void {
    for (const [hash, entry] of this.keys) {
      if (this.keys.size < this.maxKeys) return;
      if (entry.usedAgain) {
        entry.usedAgain = false;
        this.keys.delete(hash);
        this.keys.set(hash, entry);
      } else this.dropKey(hash);
    }
  }

  /** Removes a key's entry and the secret kept with it; false when there was none. */
  private dropKey(hash: string): boolean {
    const entry = this.keys.get(hash);
    if (!entry) return false;
    if (entry.secret !== undefined) this.hashBySecret.delete(entry.secret);
    return this.keys.delete(hash);
  }
}

function cacheTenant(tenant: CompiledTenant): CachedTenant {
  const cached = Object.values(tenant.policies).map((policy): CachedPolicy => ({
    policy,
    overrides: indexOverrides(policy),
  }));
  return {
    tenant,
    policies: new Map(cached.map((entry) => [entry.policy.name, entry])),
    policiesById: new Map(cached.map((entry) => [entry.policy.id, entry])),
  };
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a number above 0, got ${value}`);
  }
  return value;
}
