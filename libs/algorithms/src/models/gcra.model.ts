import { toDecision } from '../decision';
import type { GcraRule } from '../rule-spec';
import { settled, withCommit, type ModelResult, type SettleStep } from './model';
import { emissionIntervalUs, settleSchedule, virtualSchedule } from './virtual-schedule';

export interface GcraState {
  algorithm: 'gcra';
  /** Theoretical arrival time. */
  tatUs: number;
}

/**
 * GCRA with emission interval T = period / limit and tolerance burst * T: a request passes when
 * max(TAT, now) + cost * T - burst * T <= now, and then moves the TAT by cost * T.
 */
export function gcraModel(
  state: GcraState | undefined,
  rule: GcraRule,
  nowUs: number,
  cost: number,
): ModelResult<GcraState> {
  const burst = rule.burst ?? rule.limit;
  const intervalUs = emissionIntervalUs(rule.periodMs * 1000, rule.limit);
  const s = virtualSchedule(state?.tatUs ?? nowUs, nowUs, burst, intervalUs, cost);
  const decision = toDecision({
    allowed: s.allowed,
    limit: burst,
    remaining: s.remaining,
    resetAtUs: s.dueUs,
    retryUs: s.retryUs,
    delayUs: 0,
  });
  return withCommit(decision, cost, { algorithm: 'gcra', tatUs: s.dueUs }, s.dueUs - nowUs);
}

/** An overrun pushes the TAT ahead (debt), a refund pulls it back, never before now. */
export function gcraSettle(
  state: GcraState | undefined,
  rule: GcraRule,
  nowUs: number,
  delta: number,
): SettleStep<GcraState> {
  const intervalUs = emissionIntervalUs(rule.periodMs * 1000, rule.limit);
  const s = settleSchedule(state?.tatUs, nowUs, intervalUs, delta);
  if (!s) return { charged: 0 };
  return settled(s.charged, { algorithm: 'gcra', tatUs: s.dueUs }, s.dueUs - nowUs);
}
