import type { RuleResult } from '@sluice/engine';

/** Burn-downs are told for quotas of an hour or more: shorter ones refill before they matter. */
export const BURN_DOWN_MIN_WINDOW_MS = 3_600_000;

/** Algorithms whose quota comes back continuously (`quota` per `windowMs`) instead of at once. */
const REFILLING = new Set(['token_bucket', 'leaky_bucket', 'gcra']);

/**
 * When a rule's quota runs out for an identifier spending `ratePerMs` (ms epoch), at the rule's
 * state `now`: at once when nothing remains; null when its window is under an hour, when it
 * refills at least as fast as it is spent, or (a window) when the window ends first.
 */
export function runsOutAt(
  rule: Pick<
    RuleResult,
    'algorithm' | 'remaining' | 'resetAt' | 'quota' | 'windowMs' | 'calendarUnit'
  >,
  ratePerMs: number,
  now: number,
): number | null {
  if (rule.algorithm === 'concurrency') return null;
  if (rule.windowMs < BURN_DOWN_MIN_WINDOW_MS && rule.calendarUnit === undefined) return null;
  if (rule.remaining <= 0) return now;
  const refilling = REFILLING.has(rule.algorithm);
  const net = ratePerMs - (refilling ? rule.quota / rule.windowMs : 0);
  if (!(net > 0)) return null;
  const at = Math.ceil(now + rule.remaining / net);
  return !refilling && at >= rule.resetAt ? null : at;
}
