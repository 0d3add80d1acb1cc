import type { CheckResult, FieldError, ProblemDetails } from './types';

/** Base of every problem type URI the data plane names. */
export const PROBLEM_BASE = 'https://sluice.dev/problems/';

export interface SluiceErrorInit {
  /** The HTTP status; undefined when no answer came (network failure, timeout). */
  status?: number;
  problem?: ProblemDetails;
  cause?: unknown;
}

/**
 * Anything the data plane refused or could not answer. A denial by a rule is not an error (it is
 * a `CheckResult` with `allowed: false`) except from `limit()`, which throws `RateLimitedError`.
 */
export class SluiceError extends Error {
  override readonly name: string = 'SluiceError';
  /** The HTTP status; undefined when no answer came. */
  readonly status: number | undefined;
  /** The problem type URI (`https://sluice.dev/problems/…`), `about:blank` without one. */
  readonly type: string;
  /** The problem's `detail`, else its title, else what went wrong on the way. */
  readonly detail: string;
  /** The RFC 9457 body the data plane answered with, if any. */
  readonly problem: ProblemDetails | undefined;

  constructor(message: string, init: SluiceErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.problem = init.problem;
    this.type = init.problem?.type ?? 'about:blank';
    this.detail = init.problem?.detail ?? init.problem?.title ?? message;
  }
}

/** 400: bad input; `errors` names every rejected field. */
export class ValidationError extends SluiceError {
  override readonly name = 'ValidationError';
  readonly errors: FieldError[];

  constructor(message: string, init: SluiceErrorInit = {}) {
    super(message, init);
    const errors = init.problem?.['errors'];
    this.errors = Array.isArray(errors) ? (errors as FieldError[]) : [];
  }
}

/** 401: the API key is missing, unknown, revoked or expired. */
export class AuthenticationError extends SluiceError {
  override readonly name = 'AuthenticationError';
}

/** 403: the key may not use that policy or lacks the scope (`admin` for a reset). */
export class ForbiddenError extends SluiceError {
  override readonly name = 'ForbiddenError';
}

/** 404: no such policy in the key's tenant, or an unknown, expired or foreign reservation/lease. */
export class NotFoundError extends SluiceError {
  override readonly name = 'NotFoundError';
}

/** 409: e.g. settling a reservation of a policy that has no reservations. */
export class ConflictError extends SluiceError {
  override readonly name = 'ConflictError';
}

export type UnavailableReason = 'timeout' | 'network' | 'server' | 'invalid-response';

/**
 * The data plane could not decide: no answer in time (`timeout`), no connection (`network`), a 5xx
 * answer (`server`, e.g. 503 `temporary-reduced-capacity`), or an answer that is not the data
 * plane's (`invalid-response`). Checks apply the client's `failMode` to exactly these.
 */
export class UnavailableError extends SluiceError {
  override readonly name = 'UnavailableError';
  readonly reason: UnavailableReason;
  /** From the answer's `Retry-After`, when it had one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    init: SluiceErrorInit & { reason: UnavailableReason; retryAfterMs?: number },
  ) {
    super(message, init);
    this.reason = init.reason;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** `limit()`'s check was denied; `result` says by which rule and why. */
export class RateLimitedError extends SluiceError {
  override readonly name = 'RateLimitedError';
  override readonly type = `${PROBLEM_BASE}rate-limited`;
  /** Ms until the same cost could pass; -1 when it never can (cost above a limit, suspended). */
  readonly retryAfterMs: number;

  constructor(readonly result: CheckResult) {
    const by = result.deniedBy === undefined ? '' : ` by rule "${result.deniedBy}"`;
    super(`Denied${by} of policy "${result.policy}" (${result.reason}).`, { status: 429 });
    this.retryAfterMs = result.retryAfterMs;
  }
}

/**
 * Thrown to the framework by the middleware, the Fastify hook and the Nest guard when the check
 * itself failed for a reason that is the service's configuration, not the caller's request (a
 * bad API key, an unknown policy, bad input): `cause` is the `SluiceError`. It has no `status`,
 * so frameworks answer 500 instead of passing on the data plane's 401 or 404.
 */
export class SluiceGuardError extends Error {
  override readonly name = 'SluiceGuardError';

  constructor(override readonly cause: SluiceError) {
    super(`Sluice could not check this request: ${cause.message}`, { cause });
  }
}

const BY_STATUS: Record<number, new (message: string, init: SluiceErrorInit) => SluiceError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
};

/** The typed error for a 4xx answer (5xx answers are `UnavailableError`s, made by the client). */
export function errorForStatus(status: number, problem: ProblemDetails | undefined): SluiceError {
  const message = problem?.detail ?? problem?.title ?? `The data plane answered ${status}.`;
  const ErrorClass = BY_STATUS[status] ?? SluiceError;
  return new ErrorClass(message, { status, ...(problem ? { problem } : {}) });
}
