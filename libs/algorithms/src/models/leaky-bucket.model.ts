import { toDecision } from '../decision';
import type { LeakyBucketRule } from '../rule-spec';
import { settled, withCommit, type ModelResult, type SettleStep } from './model';
import { emissionIntervalUs, settleSchedule, virtualSchedule } from './virtual-schedule';

export interface LeakyBucketState {
  algorithm: 'leaky_bucket';
  /** When the queue drains empty. */
  emptyAtUs: number;
}

/**
 * A FIFO queue leaking at a constant rate: a request joins when the queue, after leaking, has
 * room for its cost, and leaves once everything ahead of it has (delay); a full queue denies.
 */
export function leakyBucketModel(
  state: LeakyBucketState | undefined,
  rule: LeakyBucketRule,
  nowUs: number,
  cost: number,
): ModelResult<LeakyBucketState> {
  const intervalUs = emissionIntervalUs(1e6, rule.leakPerSecond);
  const s = virtualSchedule(state?.emptyAtUs ?? nowUs, nowUs, rule.capacity, intervalUs, cost);
  const decision = toDecision({
    allowed: s.allowed,
    limit: rule.capacity,
    remaining: s.remaining,
    resetAtUs: s.dueUs,
    retryUs: s.retryUs,
    delayUs: s.allowed ? s.backlogUs : 0,
  });
  return withCommit(
    decision,
    cost,
    { algorithm: 'leaky_bucket', emptyAtUs: s.dueUs },
    s.dueUs - nowUs,
  );
}

/** An overrun pushes the drain time ahead (debt), a refund pulls it back, never before now. */
export function leakyBucketSettle(
  state: LeakyBucketState | undefined,
  rule: LeakyBucketRule,
  nowUs: number,
  delta: number,
): SettleStep<LeakyBucketState> {
  const intervalUs = emissionIntervalUs(1e6, rule.leakPerSecond);
  const s = settleSchedule(state?.emptyAtUs, nowUs, intervalUs, delta);
  if (!s) return { charged: 0 };
  return settled(s.charged, { algorithm: 'leaky_bucket', emptyAtUs: s.dueUs }, s.dueUs - nowUs);
}
