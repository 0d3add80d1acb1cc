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
}

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
