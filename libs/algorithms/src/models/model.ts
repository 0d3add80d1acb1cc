import type { Decision } from '../decision';

/** What a reference model decides, and what committing that decision would store. */
export interface ModelResult<S> {
  decision: Decision;
  /** Present when the rule passed with cost > 0; `ttlMs` is the key's PEXPIRE. */
  commit?: { state: S; ttlMs: number };
}

export function withCommit<S>(
  decision: Decision,
  cost: number,
  state: S,
  ttlUs: number,
): ModelResult<S> {
  return decision.allowed && cost > 0
    ? { decision, commit: { state, ttlMs: Math.ceil(ttlUs / 1000) } }
    : { decision };
}

/**
 * What settling a reservation does to one rule: `charged` whole units (see `SettledRule`), and
 * the state to store, absent when nothing changes. A `ttlMs` of 0 means the state equals none.
 */
export interface SettleStep<S> {
  charged: number;
  commit?: { state: S; ttlMs: number };
}

/** Longest recovery a settled overrun can book (10 years): deeper debt is capped there. */
export const MAX_DEBT_US = 315_360_000_000_000;

export function settled<S>(charged: number, state: S, ttlUs: number): SettleStep<S> {
  return { charged, commit: { state, ttlMs: Math.ceil(ttlUs / 1000) } };
}
