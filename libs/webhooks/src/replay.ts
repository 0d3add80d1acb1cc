import type { RedisLike } from '@sluice/algorithms';
import type { Queue } from 'bullmq';
import { endpointKeys } from './keys';
import type { DeliveryJob } from './queue';

export interface ReplayOutcome {
  /** Sent back to the queue with their event ids, for a new run of attempts. */
  replayed: string[];
  /** Not in this endpoint's dead letters, or their job is gone (past its retention). */
  missing: string[];
  /** Dead letters of the endpoint still there afterwards (more than one call replays at once). */
  remaining: number;
}

/** Dead letters one call replays at most, oldest first, so a call stays short. */
export const REPLAY_BATCH = 1000;

/**
 * Sends dead letters back to the queue (the endpoint's oldest REPLAY_BATCH, or those that died
 * at or after `since` (ms), or those named, at most REPLAY_BATCH): each keeps its event id and body and gets a new run of `maxAttempts`
 * attempts, numbered after the earlier ones. Only the endpoint's own dead letters are touched, so ids of another endpoint or tenant
 * replay nothing. Replays join the endpoint's dispatch schedule, so they go out at its rate.
 */
export async function replayDeadLetters(
  redis: RedisLike,
  queue: Queue<DeliveryJob>,
  prefix: string,
  tenantId: string,
  endpointId: string,
  selection: { eventIds?: readonly string[]; since?: number } = {},
): Promise<ReplayOutcome> {
  const keys = endpointKeys(prefix, tenantId, endpointId);
  const { eventIds, since } = selection;
  // the dead letters' scores are when they died
  const listed = (
    eventIds ??
    (since === undefined
      ? await redis.zrange(keys.dead, 0, REPLAY_BATCH - 1)
      : await redis.zrangebyscore(keys.dead, since, '+inf', 'LIMIT', 0, REPLAY_BATCH))
  ).slice(0, REPLAY_BATCH);
  const outcome: ReplayOutcome = { replayed: [], missing: [], remaining: 0 };
  if (listed.length === 0) {
    outcome.remaining = await redis.zcard(keys.dead);
    return outcome;
  }
  const scores = await redis.zmscore(keys.dead, ...listed);
  for (const [i, eventId] of listed.entries()) {
    if (scores[i] === null || scores[i] === undefined) {
      outcome.missing.push(eventId);
      continue;
    }
    const job = await queue.getJob(eventId);
    const ours =
      job !== undefined && job.data.tenantId === tenantId && job.data.endpointId === endpointId;
    if (!job || !ours || !(await job.isFailed())) {
      await redis.zrem(keys.dead, eventId);
      outcome.missing.push(eventId);
      continue;
    }
    const { slotAt: _booked, ...data } = job.data;
    await job.updateData({ ...data, runStart: data.attempts });
    await redis.multi().zrem(keys.dead, eventId).zadd(keys.pending, Date.now(), eventId).exec();
    try {
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    } catch (error) {
      await redis
        .multi()
        .zadd(keys.dead, scores[i] ?? Date.now(), eventId)
        .zrem(keys.pending, eventId)
        .exec();
      throw error;
    }
    outcome.replayed.push(eventId);
  }
  outcome.remaining = await redis.zcard(keys.dead);
  return outcome;
}
