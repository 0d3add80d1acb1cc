import type { Algorithm, AnyAlgorithm } from '@sluice/algorithms';
import type { ApiKeyRecord } from '@sluice/policy';
import type { DecisionEvent, SettleEvent } from '@sluice/usage';

export type { SettleEvent };

/**
 * Why a check was answered the way it was. The enforcement contract:
 * - A denial is a result (`allowed: false` with its reason), never a thrown error. Errors are
 *   for requests that cannot be decided: see `EngineError` (400, 401, 403, 404, 503).
 * - `rule`: a live rule denied; `deniedBy` names it. Several rules are all-or-nothing: a denial
 *   by any live rule consumes from none.
 * - `allowed`: every live rule passed and was charged (`cost`; 0 peeks, `dryRun` charges nothing).
 * - `shadow`: the policy is in shadow mode and a rule would have denied: allowed, with
 *   `shadowDenied: true` (and `deniedBy` naming the rule that would have denied).
 * - `suspended`: the tenant is suspended: denied without touching Redis.
 * - `fail-open`: Redis failed or exceeded the policy's `redisTimeoutMs` and the policy's fail
 *   mode is `open` (or the policy is in shadow mode, which never denies): allowed.
 * - `fail-closed`: the same failure with fail mode `closed`: denied (HTTP 503
 *   `temporary-reduced-capacity`).
 * - `local`: the same failure with fail mode `local`: this process' in-memory limiter decided
 *   with the same rules (allowed or denied; its counts are this process' traffic only).
 * An override that applied is reported by `overrideId` whatever the reason.
 */
export type DecisionReason =
  'allowed' | 'rule' | 'shadow' | 'suspended' | 'fail-open' | 'fail-closed' | 'local';

/** One rule's figures for this check (see the algorithms lib's contract). */
export interface RuleResult {
  name: string;
  algorithm: AnyAlgorithm;
  allowed: boolean;
  /** Capacity / limit / burst. */
  limit: number;
  /** Whole units left; negative while the rule is in debt. */
  remaining: number;
  /** Ms epoch when the rule is back to full (buckets) or empty (windows). */
  resetAt: number;
  /** Ms until the same cost could pass: 0 when allowed, -1 (RETRY_NEVER) when it never can. */
  retryAfterMs: number;
  /** Leaky bucket only: ms the request waits in the queue before it leaves. */
  delayMs?: number;
  /**
   * Units per window, as `RateLimit-Policy` states it (GCRA: `limit` per `periodMs`);
   * concurrency: the most leases in flight.
   */
  quota: number;
  /**
   * The window of `quota` in ms: bucket refill/drain time, window length, GCRA period;
   * concurrency: the lease TTL (how long a lease holds its slot unless released).
   */
  windowMs: number;
  /** Set for calendar windows, whose length varies (DST days, months). */
  calendarUnit?: 'day' | 'month';
}

/**
 * The answer to a check (`POST /v1/check`'s body). The top-level figures are the headline
 * rule's: the denying rule (the first denied live rule with the longest retry), else the rule
 * with the least remaining share (remaining / limit). Without rule figures (suspended,
 * fail-open, fail-closed) `rules` is empty, `limit` and `remaining` are 0 and `resetAt` is `at`.
 */
export interface CheckResult {
  allowed: boolean;
  /** The policy name asked for. */
  policy: string;
  identifier: string;
  limit: number;
  remaining: number;
  resetAt: number;
  /**
   * 0 when allowed; else ms until the same cost could pass (the longest wait among the denied
   * live rules), -1 when it never can (cost above a capacity, or a suspended tenant) and
   * FAIL_CLOSED_RETRY_MS for fail-closed.
   */
  retryAfterMs: number;
  /** Present when the policy has a leaky bucket: the longest queue delay among its rules. */
  delayMs?: number;
  /** One per live rule: the rate rules in policy order, then the concurrency rules. */
  rules: RuleResult[];
  /** The rule that denied (or, in shadow mode, would have). */
  deniedBy?: string;
  reason: DecisionReason;
  /** The override whose parameters replaced the policy's for this identifier. */
  overrideId?: string;
  /** Shadow-mode policies only: whether a live rule would have denied. */
  shadowDenied?: boolean;
  /** Candidate rules (own counters, never deny), when the policy has any. */
  candidates?: RuleResult[];
  /** Ms epoch of the decision (the engine's clock). */
  at: number;
  /**
   * The reservation to settle (`DecisionEngine.settle`): the policy has reservations and the
   * check charged a cost > 0 (allowed, not a dry run, decided in Redis or by the local limiter).
   */
  reservationId?: string;
  /** Ms epoch (the deciding clock) after which an unsettled reservation stands at its estimate. */
  reservationExpiresAt?: number;
  /**
   * The lease to release (`DecisionEngine.release`): the policy has a concurrency rule and the
   * check took a slot (allowed, cost > 0, not a dry run).
   */
  leaseId?: string;
  /** Ms epoch when the lease frees its slot by itself (the earliest of its rules). */
  leaseExpiresAt?: number;
}

export interface CheckRequest {
  /** The authenticated key (`authenticate`); it decides the tenant. Needs the `check` scope. */
  key: ApiKeyRecord;
  /** A policy name of the key's tenant. */
  policy: string;
  /** Who is limited: 1..256 bytes of UTF-8. */
  identifier: string;
  /** Integer 0..1e9, default 1; 0 peeks (evaluates, consumes nothing). */
  cost?: number;
  /** Decide as usual, consume nothing, record no usage. */
  dryRun?: boolean;
}

export type InspectRequest = Omit<CheckRequest, 'cost' | 'dryRun'>;

export interface SettleRequest {
  /** The authenticated key: its tenant must be the reservation's. Needs the `check` scope. */
  key: ApiKeyRecord;
  /** A check's `reservationId` (untrusted input: anything else is not found). */
  reservationId: string;
  /** What the call really cost: an integer 0..1e9. */
  actualCost: number;
}

/** One rate rule after a settle: what the settle changed, then a peek's figures. */
export interface SettledRuleResult {
  name: string;
  algorithm: Algorithm;
  /**
   * Units applied: the delta (actual - estimate) for an overrun; for a refund the part that had
   * somewhere to go (0 once the charged window or log entry is gone, or the bucket is full);
   * 0 on a repeated settle.
   */
  charged: number;
  /** Whether a cost-0 check would pass now (false while the rule is in debt). */
  allowed: boolean;
  /** The limit the reservation was charged under (an override's, if one applied). */
  limit: number;
  /** Whole units left; negative while the rule is in debt. */
  remaining: number;
  resetAt: number;
  /** Ms until a cost-0 check passes (0 when it does now). */
  retryAfterMs: number;
  /** Leaky bucket only. */
  delayMs?: number;
}

/** The answer to a settle (`POST /v1/settle`'s body). */
export interface SettleResult {
  reservationId: string;
  settled: true;
  /** A settle came first: nothing changed, `actualCost` is that settle's. */
  alreadySettled: boolean;
  /** The cost the check charged. */
  estimate: number;
  actualCost: number;
  /** The live rate rules the reservation charged that the policy still has, in policy order. */
  rules: SettledRuleResult[];
}

export interface ReleaseRequest {
  /** The authenticated key: its tenant must be the lease's. Needs the `check` scope. */
  key: ApiKeyRecord;
  /** A check's `leaseId` (untrusted input: anything else is not found). */
  leaseId: string;
}

/** The answer to a release (`POST /v1/release`'s body). */
export interface ReleaseResult {
  leaseId: string;
  /** False when the lease was not held any more (released before, or expired): harmless. */
  released: boolean;
}

/**
 * Receives one event per check (not for dry runs or inspects), e.g. `UsageRecorder`, and, when
 * it has `recordSettle`, one per first settle, so that usage can move a check's cost from the
 * estimate to the actual cost (the delta is `actualCost - estimate`, of either sign).
 */
export interface DecisionRecorder {
  record(event: DecisionEvent): void;
  recordSettle?(event: SettleEvent): void;
}
