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
