import {
  concurrency,
  leakyBucket,
  newNonce,
  releaseLeaseKeys,
  type RedisLike,
} from '@sluice/algorithms';
import { dispatchRule } from './admission';
import { endpointKeys } from './keys';
import { webhookScripts } from './scripts';

/** What the worker checks at pick-up besides the schedule. */
export interface EndpointRuntime {
  /** Ms epoch (Redis clock) before which nothing is sent; 0 when never paused. */
  pausedUntil: number;
  /** Failed attempts in a row (a delivery resets it). */
  failures: number;
}

export async function readEndpointRuntime(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  endpointId: string,
): Promise<EndpointRuntime> {
  const [pausedUntil, failures] = await redis.hmget(
    endpointKeys(prefix, tenantId, endpointId).state,
    'pausedUntil',
    'failures',
  );
  return { pausedUntil: Number(pausedUntil ?? 0), failures: Number(failures ?? 0) };
}

/**
 * Books the next send slot on the endpoint's dispatch schedule (the leaky bucket again, at the
 * endpoint's rate): `delayMs` is how long this send must wait so that sends never come closer
 * than the rate allows, whatever made jobs arrive together (a restart, retries, a pause ending).
 */
export async function bookSendSlot(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  endpoint: { id: string; leakRatePerSec: number },
): Promise<{ allowed: boolean; delayMs: number; retryAfterMs: number }> {
  const decision = await leakyBucket(
    redis,
    endpointKeys(prefix, tenantId, endpoint.id).dispatch,
    dispatchRule(endpoint.leakRatePerSec),
  );
  return {
    allowed: decision.allowed,
    delayMs: decision.delayMs,
    retryAfterMs: decision.retryAfter,
  };
}

/**
 * One of the endpoint's `limit` in-flight slots (the lib's concurrency leases), so a slow
 * receiver holds at most `limit` of the worker's slots; it frees itself after `ttlMs` if the
 * worker dies. Undefined when all are taken.
 */
export async function takeInFlightLease(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  endpointId: string,
  limit: number,
  ttlMs: number,
): Promise<string | undefined> {
  const lease = newNonce();
  const decision = await concurrency(
    redis,
    endpointKeys(prefix, tenantId, endpointId).inFlight,
    { limit, leaseTtlMs: ttlMs },
    { lease },
  );
  return decision.allowed ? lease : undefined;
}

export async function releaseInFlightLease(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  endpointId: string,
  lease: string,
): Promise<void> {
  await releaseLeaseKeys(redis, [endpointKeys(prefix, tenantId, endpointId).inFlight], lease);
}

export type AttemptOutcome = 'delivered' | 'retry' | 'dead';

export interface OutcomeOptions {
  /** The receiver's Retry-After, ms from now; 0 when it gave none. */
  retryAfterMs: number;
  /** Failures in a row from which the endpoint pauses. */
  failureThreshold: number;
  /** The pause at `failureThreshold` failures (doubling with each further one). */
  failurePauseMs: number;
  /** Longest pause of either kind. */
  maxPauseMs: number;
  /** How long an event stays listed in the dead letters. */
  deadLetterRetentionMs: number;
}

/** Counters, failures in a row, pause, pending / dead letters: one atomic script. */
export async function recordOutcome(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  endpointId: string,
  outcome: AttemptOutcome,
  eventId: string,
  options: OutcomeOptions,
): Promise<EndpointRuntime> {
  const keys = endpointKeys(prefix, tenantId, endpointId);
  const reply = await webhookScripts.run(
    redis,
    'record_outcome',
    [keys.state, keys.pending, keys.dead],
    [
      outcome,
      eventId,
      Math.max(0, Math.ceil(options.retryAfterMs)),
      options.failureThreshold,
      options.failurePauseMs,
      options.maxPauseMs,
      options.deadLetterRetentionMs,
    ],
  );
  const [pausedUntil, failures] = reply as [number, number];
  return { pausedUntil, failures };
}
