import { RETRY_NEVER, toDecision } from '../decision';
import type { SlidingWindowCounterRule } from '../rule-spec';
import { settled, withCommit, type ModelResult, type SettleStep } from './model';

export interface SlidingWindowCounterState {
  algorithm: 'sliding_window_counter';
  /** Start of the epoch-aligned window `curr` counts. */
  startUs: number;
  prev: number;
  curr: number;
}

/** The current window's start and the counts of the previous and current windows. */
function counts(
  state: SlidingWindowCounterState | undefined,
  w: number,
  nowUs: number,
): { startUs: number; prev: number; curr: number } {
  const startUs = nowUs - (nowUs % w);
  if (state?.startUs === startUs) return { startUs, prev: state.prev, curr: state.curr };
  if (state?.startUs === startUs - w) return { startUs, prev: state.curr, curr: 0 };
  return { startUs, prev: 0, curr: 0 };
}

/** When the estimate is back to 0: curr decays over the next window, prev over this one. */
function resetAt(startUs: number, w: number, prev: number, curr: number, nowUs: number): number {
  if (curr > 0) return startUs + 2 * w;
  if (prev > 0) return startUs + w;
  return nowUs;
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
  const { startUs, prev, curr } = counts(state, w, nowUs);
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
  const resetAtUs = resetAt(startUs, w, prev, currAfter, nowUs);
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

/**
 * An overrun counts in the current window; a refund only in the charged window
 * (`chargedStartUs`) while it is still the current one (once it is the previous, no effect).
 */
export function slidingWindowCounterSettle(
  state: SlidingWindowCounterState | undefined,
  rule: SlidingWindowCounterRule,
  nowUs: number,
  chargedStartUs: number,
  delta: number,
): SettleStep<SlidingWindowCounterState> {
  const w = rule.windowMs * 1000;
  const { startUs, prev, curr } = counts(state, w, nowUs);
  let change = delta;
  if (delta < 0) {
    if (chargedStartUs !== startUs) return { charged: 0 };
    change = -Math.min(-delta, curr);
    if (change === 0) return { charged: 0 };
  }
  const after = curr + change;
  return settled(
    change,
    { algorithm: 'sliding_window_counter', startUs, prev, curr: after },
    resetAt(startUs, w, prev, after, nowUs) - nowUs,
  );
}
