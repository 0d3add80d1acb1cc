export type Algorithm =
  | 'token_bucket'
  | 'leaky_bucket'
  | 'fixed_window'
  | 'sliding_window_log'
  | 'sliding_window_counter'
  | 'gcra';

export interface TokenBucketRule {
  algorithm: 'token_bucket';
  /** Most tokens the bucket holds (integer). */
  capacity: number;
  /** Tokens added per second; may be fractional. */
  refillPerSecond: number;
}

export interface LeakyBucketRule {
  algorithm: 'leaky_bucket';
  /** Queue size in cost units (integer). */
  capacity: number;
  /** Cost units leaving the queue per second; may be fractional (at most 1,000,000). */
  leakPerSecond: number;
}

/** Calendar windows start at local midnight (day) or the 1st at local midnight (month). */
export interface CalendarWindow {
  unit: 'day' | 'month';
  /** IANA time zone, e.g. `Europe/Paris`. */
  timeZone: string;
}

export type FixedWindowRule =
  | { algorithm: 'fixed_window'; limit: number; windowMs: number; calendar?: never }
  | { algorithm: 'fixed_window'; limit: number; calendar: CalendarWindow; windowMs?: never };

export interface SlidingWindowLogRule {
  algorithm: 'sliding_window_log';
  limit: number;
  windowMs: number;
}

export interface SlidingWindowCounterRule {
  algorithm: 'sliding_window_counter';
  limit: number;
  windowMs: number;
}

export interface GcraRule {
  algorithm: 'gcra';
  /** Sustained rate: `limit` per `periodMs`. */
  limit: number;
  periodMs: number;
  /** Units that may pass at once (defaults to `limit`). */
  burst?: number;
}

/** The six rate rules: they charge a cost (and can be settled, see reservations). */
export type RuleSpec =
  | TokenBucketRule
  | LeakyBucketRule
  | FixedWindowRule
  | SlidingWindowLogRule
  | SlidingWindowCounterRule
  | GcraRule;

/**
 * At most `limit` leases in flight: a check with a cost > 0 takes one lease (one slot, whatever
 * the cost), released by `releaseLease` or expiring by itself after `leaseTtlMs`.
 */
export interface ConcurrencyRule {
  algorithm: 'concurrency';
  /** Most leases in flight at once (integer). */
  limit: number;
  /** How long a lease holds its slot unless released first (ms, integer). */
  leaseTtlMs: number;
}

/**
 * Every rule a check takes: the rate rules and concurrency. `RuleSpec` stays the rate rules
 * alone, so switches written over it stay exhaustive.
 */
export type AnyRuleSpec = RuleSpec | ConcurrencyRule;
export type AnyAlgorithm = AnyRuleSpec['algorithm'];

/** One rule of a composite check. */
export interface RuleCheck {
  /** The rule's base key (see `ruleKey`); all keys of one check must share one hash tag. */
  key: string;
  rule: AnyRuleSpec;
  /** Integer >= 0, default 1; 0 peeks. */
  cost?: number;
  /**
   * Evaluated beside the live rules in its own all-or-nothing group; never denies the request.
   * Not for concurrency rules: a candidate's lease would outlive a denied request.
   */
  candidate?: boolean;
}
