import { RETRY_NEVER, toDecision } from '../decision';
import type { SlidingWindowCounterRule } from '../rule-spec';
import { withCommit, type ModelResult } from './model';

export interface SlidingWindowCounterState {
  algorithm: 'sliding_window_counter';
  /** Start of the epoch-aligned window `curr` counts. */
  startUs: number;
  prev: number;
  curr: number;
}

/**
 * estimate = prev * (1 - elapsed / window) + curr, with the previous and current epoch-aligned
 * windows' counts; a cost passes while estimate + cost <= limit. The estimate only decays, so a
 * denied cost passes at the first moment its decayed value leaves room.
 */
export function slidingWindowCounterModel(
  state: SlidingWindowCounterState | undefined,
  rule: SlidingWindowCounterRule,
  nowUs: number,
  cost: number,
): ModelResult<SlidingWindowCounterState> {
  const { limit } = rule;
  const w = rule.windowMs * 1000;
  const startUs = nowUs - (nowUs % w);
  let prev = 0;
  let curr = 0;
  if (state?.startUs === startUs) {
    prev = state.prev;
    curr = state.curr;
  } else if (state?.startUs === startUs - w) {
    prev = state.curr;
  }
  const elapsed = nowUs - startUs;
  const estimate = (prev * (w - elapsed)) / w + curr;
  const allowed = cost <= limit && estimate + cost <= limit;
  let retryUs = 0;
  if (cost > limit) {
    retryUs = RETRY_NEVER;
  } else if (!allowed && curr + cost <= limit) {
    // prev * (w - e) / w + curr <= limit - cost  <=>  e >= w - (limit - cost - curr) * w / prev
    retryUs = w - elapsed - ((limit - cost - curr) * w) / prev;
  } else if (!allowed) {
    // next window: curr * (w - e') / w <= limit - cost, at e' past this window's end
    retryUs = 2 * w - elapsed - ((limit - cost) * w) / curr;
  }
  const currAfter = allowed ? curr + cost : curr;
  let resetAtUs = nowUs;
  if (currAfter > 0) resetAtUs = startUs + 2 * w;
  else if (prev > 0) resetAtUs = startUs + w;
  const decision = toDecision({
    allowed,
    limit,
    remaining: Math.floor(limit - (allowed ? estimate + cost : estimate)),
    resetAtUs,
    retryUs,
    delayUs: 0,
  });
  return withCommit(
    decision,
    cost,
    { algorithm: 'sliding_window_counter', startUs, prev, curr: currAfter },
    resetAtUs - nowUs,
  );
}
