import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';

/**
 * Heartbeats: each running data plane and worker says every few seconds what it is and how it
 * is doing, so the control plane's platform view can list them. Stored format 1:
 * - `<prefix>heartbeat:<service>:<instance>`: the latest beat as JSON, expiring after
 *   `HEARTBEAT_RETAIN_MS`;
 * - `<prefix>heartbeats`: a sorted set of `<service>:<instance>` by the Redis time (ms) of its
 *   latest beat, pruned of beats older than `HEARTBEAT_RETAIN_MS` at every write.
 * An instance that stops cleanly removes both; one that dies stays listed, silent, for an hour.
 */
export const HEARTBEAT_FORMAT = 1;
/** How long the beat of an instance that stopped beating stays readable (ms). */
export const HEARTBEAT_RETAIN_MS = 3_600_000;
/** A beat older than this many intervals means the instance is silent. */
export const SILENT_AFTER_INTERVALS = 3;

export type HeartbeatService = 'data-plane' | 'worker';

export function heartbeatKey(prefix: string, service: HeartbeatService, instance: string): string {
  return `${prefix}heartbeat:${service}:${instance}`;
}

export function heartbeatIndexKey(prefix: string): string {
  return `${prefix}heartbeats`;
}

/** A process's name among its service's instances: host, pid and a random suffix. */
export function instanceName(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

const count = z.number().int().min(0);

/** What a data plane reports beside the common fields. */
export const dataPlaneBeatSchema = z.object({
  /** Decisions since the process started. */
  decisions: z.object({ allowed: count, denied: count }),
  /** Over the interval before this beat. */
  perSecond: z.object({ checks: z.number().min(0), denied: z.number().min(0) }),
  redis: z.object({
    /** Each connection's ioredis status by its role (`ready` when usable). */
    connections: z.record(z.string(), z.string()),
    /** The round trip of this beat's TIME call (ms). */
    roundTripMs: z.number().min(0),
    /** How far the engine's Redis clock may be off (ms); null before its first sync. */
    clockUncertaintyMs: z.number().min(0).nullable(),
    /** Policies whose circuit is open (their checks answered by their fail mode). */
    openCircuits: count,
  }),
  cache: z.object({
    tenants: count,
    keys: count,
    /** Cached tenants' policy versions by tenant id, the most recently used first. */
    versions: z.record(z.string(), z.number().int().min(1)),
    /** Cached tenants left out of `versions` (beyond its cap). */
    versionsOmitted: count,
  }),
  usage: z.object({ pendingEntries: count, flushFailures: count }),
});
export type DataPlaneBeat = z.infer<typeof dataPlaneBeatSchema>;

/** What a worker reports: each BullMQ queue it consumes. */
export const workerBeatSchema = z.object({
  queues: z.array(
    z.object({
      name: z.string(),
      running: z.boolean(),
      waiting: count,
      active: count,
      delayed: count,
      failed: count,
    }),
  ),
});
export type WorkerBeat = z.infer<typeof workerBeatSchema>;

const commonSchema = z.object({
  format: z.literal(HEARTBEAT_FORMAT),
  instance: z.string(),
  version: z.string(),
  host: z.string(),
  pid: count,
  /** Ms epoch (Redis clock) of the process's first beat. */
  startedAt: z.number(),
  /** Ms epoch (Redis clock) of this beat. */
  at: z.number(),
  intervalMs: z.number().int().min(1),
});
export type Heartbeat<T> = z.infer<typeof commonSchema> & { details: T };

const SCHEMAS = { 'data-plane': dataPlaneBeatSchema, worker: workerBeatSchema } as const;
export type BeatOf<S extends HeartbeatService> = z.infer<(typeof SCHEMAS)[S]>;

/** A listed instance: its latest beat while it is kept, and whether it is beating still. */
export interface InstanceBeat<T> {
  instance: string;
  /** Ms epoch (Redis clock) of its latest beat. */
  lastSeenAt: number;
  /** Its latest beat is within `SILENT_AFTER_INTERVALS` intervals of now. */
  live: boolean;
  /** Undefined when the beat expired or is of another format (an older or newer release). */
  beat: Heartbeat<T> | undefined;
}

/**
 * Stores one beat and lists it in the index at `beat.at`, pruning the index of beats older than
 * the retention. Separate commands, not a transaction: the two keys have slots of their own on a
 * cluster, and a beat half written is mended by the next.
 */
export async function writeHeartbeat<S extends HeartbeatService>(
  redis: Redis,
  prefix: string,
  service: S,
  beat: Heartbeat<BeatOf<S>>,
): Promise<void> {
  const index = heartbeatIndexKey(prefix);
  const key = heartbeatKey(prefix, service, beat.instance);
  await Promise.all([
    redis.set(key, JSON.stringify(beat), 'PX', HEARTBEAT_RETAIN_MS),
    redis.zadd(index, beat.at, `${service}:${beat.instance}`),
    redis.zremrangebyscore(index, '-inf', beat.at - HEARTBEAT_RETAIN_MS),
  ]);
}

export async function removeHeartbeat(
  redis: Redis,
  prefix: string,
  service: HeartbeatService,
  instance: string,
): Promise<void> {
  await Promise.all([
    redis.del(heartbeatKey(prefix, service, instance)),
    redis.zrem(heartbeatIndexKey(prefix), `${service}:${instance}`),
  ]);
}

/** Ms epoch of the Redis server's clock. */
export async function redisTimeMs(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/**
 * The instances of `service` that beat within the retention, the latest first (at most
 * `limit`): one read of the index, then one GET per instance (each key in a slot of its own).
 */
export async function readHeartbeats<S extends HeartbeatService>(
  redis: Redis,
  prefix: string,
  service: S,
  limit = 100,
): Promise<InstanceBeat<BeatOf<S>>[]> {
  const now = await redisTimeMs(redis);
  const index = await redis.zrevrangebyscore(
    heartbeatIndexKey(prefix),
    '+inf',
    now - HEARTBEAT_RETAIN_MS,
    'WITHSCORES',
  );
  const listed: { instance: string; lastSeenAt: number }[] = [];
  for (let i = 0; i + 1 < index.length && listed.length < limit; i += 2) {
    const member = index[i] ?? '';
    if (!member.startsWith(`${service}:`)) continue;
    listed.push({ instance: member.slice(service.length + 1), lastSeenAt: Number(index[i + 1]) });
  }
  if (listed.length === 0) return [];
  const values = await Promise.all(
    listed.map(({ instance }) => redis.get(heartbeatKey(prefix, service, instance))),
  );
  const details = SCHEMAS[service];
  return listed.map(({ instance, lastSeenAt }, i) => {
    const raw = values[i];
    const beat = typeof raw === 'string' ? parseBeat(raw, details) : undefined;
    const intervalMs = beat?.intervalMs ?? 5000;
    return {
      instance,
      lastSeenAt,
      live: now - lastSeenAt <= SILENT_AFTER_INTERVALS * intervalMs,
      beat: beat as Heartbeat<BeatOf<S>> | undefined,
    };
  });
}

function parseBeat(raw: string, details: z.ZodType): Heartbeat<unknown> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const common = commonSchema.safeParse(json);
  const own = details.safeParse((json as { details?: unknown }).details);
  return common.success && own.success ? { ...common.data, details: own.data } : undefined;
}
