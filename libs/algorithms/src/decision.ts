/** `retryAfter` when the cost can never pass: it exceeds the rule's capacity. */
export const RETRY_NEVER = -1;

export interface Decision {
  allowed: boolean;
  /** The rule's capacity / limit / burst. */
  limit: number;
  /** Whole units left after this decision, rounded down; negative while the rule is in debt. */
  remaining: number;
  /** Ms epoch (rounded up) when the rule is back to full / empty if nothing else arrives. */
  resetAt: number;
  /** Ms (rounded up) until the same cost could pass; 0 when allowed; RETRY_NEVER if it never can. */
  retryAfter: number;
  /** Leaky bucket: ms (rounded up) the request waits in the queue; 0 for the others. */
  delayMs: number;
}

export interface RuleDecision extends Decision {
  candidate: boolean;
}

export interface CompositeDecision {
  /** Every live rule passed, so all of them were charged. */
  allowed: boolean;
  /** 0 when allowed; else the longest wait among the denied live rules (RETRY_NEVER wins). */
  retryAfter: number;
  /** Every candidate rule passed (true when there are none). */
  candidatesAllowed: boolean;
  /** One per rule, in the order given. */
  rules: RuleDecision[];
  /** The lease the concurrency rules took: allowed with a cost > 0, not a dry run. */
  lease?: Lease;
}

export interface Lease {
  nonce: string;
  /** Ms epoch (rounded up) when it frees its slot by itself (the earliest, for several rules). */
  expiresAt: number;
}

/** A lease of a prepared rule set, with the id that releases it (`parseLeaseId`). */
export interface PreparedLease extends Lease {
  id: string;
}

/** The record a check wrote for `settleReservation`. */
export interface Reservation {
  /** `r1.<scope>.<idHash>.<nonce>` (`parseReservationId`). */
  id: string;
  nonce: string;
  /** The cost charged to every rule, which the settle corrects to the actual cost. */
  estimate: number;
  /** Ms epoch (the script's clock) when the record expires, settled at the estimate or not. */
  expiresAt: number;
  /** The rules whose charge the settle adjusts (those committed that count cost). */
  rules: string[];
}

/** `checkPrepared`'s answer: with a lease id, and the reservation when one was written. */
export interface PreparedDecision extends CompositeDecision {
  lease?: PreparedLease;
  reservation?: Reservation;
}

/** A rule after a settle: a peek's figures, and what the settle changed. */
export interface SettledRule extends Decision {
  name: string;
  candidate: boolean;
  /**
   * Units applied: the delta (actual - estimate) for an overrun; for a refund the part that had
   * somewhere to go (rounded toward 0; 0 once the charged window or log entry is gone, or the
   * bucket is full). 0 on a repeated settle.
   */
  charged: number;
}

export type SettleResult =
  /** No record: unknown, or expired (settled at its estimate). */
  | { found: false }
  | {
      found: true;
      /** A settle came first: nothing changed, `actualCost` is that settle's. */
      alreadySettled: boolean;
      estimate: number;
      actualCost: number;
      /** The rules the reservation charged that the set still has, in set order. */
      rules: SettledRule[];
    };

/** A decision with its time figures in microseconds, before rounding. */
export interface Figures {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAtUs: number;
  retryUs: number;
  delayUs: number;
}

/** Time figures round up to whole ms, so waiting that long is never early. */
export function usToMs(us: number): number {
  return Math.ceil(us / 1000);
}

export function toDecision(figures: Figures): Decision {
  return {
    allowed: figures.allowed,
    limit: figures.limit,
    remaining: figures.remaining,
    resetAt: usToMs(figures.resetAtUs),
    retryAfter: figures.retryUs === RETRY_NEVER ? RETRY_NEVER : usToMs(figures.retryUs),
    delayMs: usToMs(figures.delayUs),
  };
}

export function combineDecisions(
  rules: RuleDecision[],
  allowed: boolean,
  candidatesAllowed: boolean,
): CompositeDecision {
  let retryAfter = 0;
  if (!allowed) {
    for (const rule of rules) {
      if (rule.candidate || rule.allowed) continue;
      if (rule.retryAfter === RETRY_NEVER) {
        retryAfter = RETRY_NEVER;
        break;
      }
      retryAfter = Math.max(retryAfter, rule.retryAfter);
    }
  }
  return { allowed, retryAfter, candidatesAllowed, rules };
}
