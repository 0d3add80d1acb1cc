import type { RedisLike } from '@sluice/algorithms';
import { endpointKeys } from './keys';

/** An endpoint's queue as the dashboard and /metrics show it. */
export interface QueueStats {
  endpointId: string;
  /** Events admitted and not yet delivered or dead (waiting, retrying or in flight). */
  depth: number;
  /** Deliveries holding an in-flight slot now. */
  inFlight: number;
  /** Events delivered, ever (a 2xx answer). */
  delivered: number;
  /** Failed attempts, ever (each retry counts). */
  failed: number;
  /** Events in the dead letters now (replayable). */
  dead: number;
  /** Ms since the oldest pending event was admitted; null when none waits. */
  oldestWaitingMs: number | null;
  /** Ms epoch the endpoint is paused until (Retry-After, failures); null when not paused now. */
  pausedUntil: number | null;
  /** Failed attempts in a row. */
  consecutiveFailures: number;
}

/**
 * Ms until `events` more than the queue holds now (0: just the queue) have left at the endpoint's
 * constant rate, after the pause it is in: what a waiting queue takes to drain, or when a replay
 * of `events` dead letters would be delivered if every attempt succeeds.
 */
export function drainEstimateMs(
  queue: Pick<QueueStats, 'depth' | 'pausedUntil'>,
  leakRatePerSec: number,
  now: number,
  events = 0,
): number {
  const paused = queue.pausedUntil === null ? 0 : Math.max(0, queue.pausedUntil - now);
  const queued = queue.depth + events;
  return queued === 0 ? 0 : paused + Math.ceil((queued / leakRatePerSec) * 1000);
}

/** The queue figures of several endpoints of one tenant, in one round trip. */
export async function readQueueStats(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  endpointIds: readonly string[],
  now = Date.now(),
): Promise<QueueStats[]> {
  if (endpointIds.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const endpointId of endpointIds) {
    const keys = endpointKeys(prefix, tenantId, endpointId);
    pipeline.zcard(keys.pending);
    pipeline.zrange(keys.pending, 0, 0, 'WITHSCORES');
    // a lease's score is its expiry in microseconds (the algorithms lib's concurrency rule)
    pipeline.zcount(keys.inFlight, `(${now * 1000}`, '+inf');
    pipeline.hmget(keys.state, 'delivered', 'failed', 'failures', 'pausedUntil');
    pipeline.zcard(keys.dead);
  }
  const replies = (await pipeline.exec()) ?? [];
  const values = replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
  return endpointIds.map((endpointId, i) => {
    const [depth, oldest, inFlight, state, dead] = values.slice(i * 5, i * 5 + 5) as [
      number,
      string[],
      number,
      (string | null)[],
      number,
    ];
    const [delivered, failed, failures, pausedUntil] = state.map((value) => Number(value ?? 0));
    const oldestAt = oldest[1] === undefined ? undefined : Number(oldest[1]);
    return {
      endpointId,
      depth,
      inFlight,
      delivered: delivered ?? 0,
      failed: failed ?? 0,
      dead,
      oldestWaitingMs: oldestAt === undefined ? null : Math.max(0, now - oldestAt),
      pausedUntil: pausedUntil !== undefined && pausedUntil > now ? pausedUntil : null,
      consecutiveFailures: failures ?? 0,
    };
  });
}
