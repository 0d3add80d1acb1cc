import { calendarWindow } from '../calendar';
import { RETRY_NEVER, toDecision } from '../decision';
import type { FixedWindowRule } from '../rule-spec';
import { settled, withCommit, type ModelResult, type SettleStep } from './model';

export interface FixedWindowState {
  algorithm: 'fixed_window';
  startUs: number;
  /** Cost admitted in the window starting at `startUs`; above the limit while in debt. */
  count: number;
}

/** The window [start, end) holding now: epoch-aligned, or a calendar day/month in a time zone. */
export function fixedWindowBounds(rule: FixedWindowRule, nowUs: number): [number, number] {
  if (rule.calendar) {
    const { startMs, endMs } = calendarWindow(rule.calendar, Math.floor(nowUs / 1000));
    return [startMs * 1000, endMs * 1000];
  }
  const windowUs = rule.windowMs * 1000;
  const startUs = nowUs - (nowUs % windowUs);
  return [startUs, startUs + windowUs];
}

/** One counter per window; a cost passes while count + cost <= limit; the next window is empty. */
export function fixedWindowModel(
  state: FixedWindowState | undefined,
  rule: FixedWindowRule,
  nowUs: number,
  cost: number,
): ModelResult<FixedWindowState> {
  const [startUs, endUs] = fixedWindowBounds(rule, nowUs);
  const count = state?.startUs === startUs ? state.count : 0;
  const allowed = cost <= rule.limit && count + cost <= rule.limit;
  const used = allowed ? count + cost : count;
  let retryUs = 0;
  if (cost > rule.limit) retryUs = RETRY_NEVER;
  else if (!allowed) retryUs = endUs - nowUs;
  const decision = toDecision({
    allowed,
    limit: rule.limit,
    remaining: rule.limit - used,
    resetAtUs: endUs,
    retryUs,
    delayUs: 0,
  });
  return withCommit(
    decision,
    cost,
    { algorithm: 'fixed_window', startUs, count: used },
    endUs - nowUs,
  );
}

/**
 * An overrun counts in the current window (over the limit: debt until the window ends); a
 * refund only in the charged window (`chargedStartUs`) while it is still the current one.
 */
export function fixedWindowSettle(
  state: FixedWindowState | undefined,
  rule: FixedWindowRule,
  nowUs: number,
  chargedStartUs: number,
  delta: number,
): SettleStep<FixedWindowState> {
  const [startUs, endUs] = fixedWindowBounds(rule, nowUs);
  const count = state?.startUs === startUs ? state.count : undefined;
  let change = delta;
  if (delta < 0) {
    if (count === undefined || chargedStartUs !== startUs) return { charged: 0 };
    change = -Math.min(-delta, count);
    if (change === 0) return { charged: 0 };
  }
  return settled(
    change,
    { algorithm: 'fixed_window', startUs, count: (count ?? 0) + change },
    endUs - nowUs,
  );
}
