/**
 * The data plane's HTTP shapes (its OpenAPI document at `GET /docs/openapi.json` is the contract).
 * Declared here rather than imported so the published package has no dependencies.
 */

export type Algorithm =
  | 'token_bucket'
  | 'leaky_bucket'
  | 'fixed_window'
  | 'sliding_window_log'
  | 'sliding_window_counter'
  | 'gcra'
  | 'concurrency';

/**
 * Why a check was answered the way it was: the data plane's reasons (`allowed`, `rule`, `shadow`,
 * `suspended`, `fail-open`, `fail-closed`, `local`), and `client-fail-open` for a result this
 * client made up because the data plane could not be reached and its `failMode` is `open`.
 */
export type DecisionReason =
  | 'allowed'
  | 'rule'
  | 'shadow'
  | 'suspended'
  | 'fail-open'
  | 'fail-closed'
  | 'local'
  | 'client-fail-open';

/** One rule's figures for a check. */
export interface RuleResult {
  name: string;
  algorithm: Algorithm;
  allowed: boolean;
  /** Capacity, limit or burst. */
  limit: number;
  /** Whole units left; negative while the rule is in debt. */
  remaining: number;
  /** Ms epoch when the rule is back to full (buckets) or empty (windows). */
  resetAt: number;
  /** Ms until the same cost could pass: 0 when allowed, -1 when it never can. */
  retryAfterMs: number;
  /** Leaky bucket only: ms the request waits in the queue. */
  delayMs?: number;
  /** Units per window, as `RateLimit-Policy` states it. */
  quota: number;
  /** The window of `quota` in ms. */
  windowMs: number;
  /** Set for calendar windows. */
  calendarUnit?: 'day' | 'month';
}

/**
 * The rate-limit headers of an answer, named as they should be sent on to a client. (A type
 * rather than an interface: it is assignable to the frameworks' header records.)
 */
export type RateLimitHeaders = {
  'X-RateLimit-Limit'?: string;
  'X-RateLimit-Remaining'?: string;
  'X-RateLimit-Reset'?: string;
  'RateLimit-Policy'?: string;
  RateLimit?: string;
  'Retry-After'?: string;
};

/** `POST /v1/check`'s body. */
export interface CheckRequest {
  /** A policy name of the API key's tenant. */
  policy: string;
  /** Who is limited: 1 to 256 bytes of UTF-8 (a user id, an IP address, …). */
  identifier: string;
  /** Units to consume, an integer from 0 to 1e9; default 1, 0 peeks. */
  cost?: number;
  /** Decide as usual but consume nothing and record no usage. */
  dryRun?: boolean;
}

/** A check's answer (`POST /v1/check`'s body) and the rate-limit headers that came with it. */
export interface CheckResult {
  allowed: boolean;
  policy: string;
  identifier: string;
  /** The headline rule's limit (the denying rule, else the least remaining share). */
  limit: number;
  remaining: number;
  resetAt: number;
  /** 0 when allowed; else ms until the same cost could pass, -1 when it never can. */
  retryAfterMs: number;
  delayMs?: number;
  /** One per live rule, in policy order; empty without rule figures (e.g. fail-open). */
  rules: RuleResult[];
  deniedBy?: string;
  reason: DecisionReason;
  overrideId?: string;
  shadowDenied?: boolean;
  candidates?: RuleResult[];
  /** Ms epoch of the decision. */
  at: number;
  /** Present when the policy has reservations and the check charged a cost > 0: settle it. */
  reservationId?: string;
  /** Ms epoch after which an unsettled reservation counts as settled at the estimate. */
  reservationExpiresAt?: number;
  /** Present when the policy has a concurrency rule and the check took a lease: release it. */
  leaseId?: string;
  /** Ms epoch when the lease frees itself if never released. */
  leaseExpiresAt?: number;
  /** The rate-limit headers of the answer, ready to copy onto a response (empty for fail-open). */
  headers: RateLimitHeaders;
}

/** `POST /v1/settle`'s body. */
export interface SettleRequest {
  reservationId: string;
  /** What the call really cost: an integer from 0 to 1e9. */
  actualCost: number;
}

/** One rule's share of a settle. */
export interface SettledRule {
  name: string;
  /** The delta applied (actual − estimate): positive charged, negative refunded, 0 nothing. */
  charged: number;
  remaining: number;
  [field: string]: unknown;
}

export interface SettleResult {
  reservationId: string;
  settled: true;
  /** True when the reservation had been settled before: nothing changed this time. */
  alreadySettled: boolean;
  estimate: number;
  /** The first settle's actual cost. */
  actualCost: number;
  rules: SettledRule[];
}

/** `POST /v1/release`'s body. */
export interface ReleaseRequest {
  leaseId: string;
}

export interface ReleaseResult {
  leaseId: string;
  /** False when the lease was released before or had expired (harmless). */
  released: boolean;
}

/** One rejected field of a 400 answer. */
export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details, as the data plane answers every refusal. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}
