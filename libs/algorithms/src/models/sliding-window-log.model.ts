import { RETRY_NEVER, toDecision } from '../decision';
import type { SlidingWindowLogRule } from '../rule-spec';
import { withCommit, type ModelResult } from './model';

export interface SlidingWindowLogState {
  algorithm: 'sliding_window_log';
  /** Admitted requests, oldest first. */
  entries: { atUs: number; cost: number }[];
}

/**
 * Every admitted request is logged with its cost; the requests of (now - window, now] count.
 * A denied cost passes once enough of the oldest entries have left the window.
 */
export function slidingWindowLogModel(
  state: SlidingWindowLogState | undefined,
  rule: SlidingWindowLogRule,
  nowUs: number,
  cost: number,
): ModelResult<SlidingWindowLogState> {
  const windowUs = rule.windowMs * 1000;
  const live = (state?.entries ?? [])
    .filter((entry) => entry.atUs > nowUs - windowUs)
    .sort((a, b) => a.atUs - b.atUs);
  const used = live.reduce((sum, entry) => sum + entry.cost, 0);
  const allowed = cost <= rule.limit && used + cost <= rule.limit;
  let retryUs = 0;
  if (cost > rule.limit) {
    retryUs = RETRY_NEVER;
  } else if (!allowed) {
    let released = 0;
    const excess = used + cost - rule.limit;
    const freeing = live.find((entry) => (released += entry.cost) >= excess);
    retryUs = (freeing?.atUs ?? nowUs) + windowUs - nowUs;
  }
  const entries = allowed && cost > 0 ? [...live, { atUs: nowUs, cost }] : live;
  const newestUs = entries.reduce<number | undefined>(
    (newest, entry) => Math.max(newest ?? entry.atUs, entry.atUs),
    undefined,
  );
  const resetAtUs = newestUs === undefined ? nowUs : newestUs + windowUs;
  const decision = toDecision({
    allowed,
    limit: rule.limit,
    remaining: rule.limit - used - (allowed ? cost : 0),
    resetAtUs,
    retryUs,
    delayUs: 0,
  });
  return withCommit(
    decision,
    cost,
    { algorithm: 'sliding_window_log', entries },
    resetAtUs - nowUs,
  );
}
