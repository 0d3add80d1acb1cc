import type { FieldIssue } from '@sluice/policy';

/** Base of every problem type URI the engine names. */
export const PROBLEM_BASE = 'https://sluice.dev/problems/';

/** RFC 9457 problem details. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  [extension: string]: unknown;
}

/**
 * A request the engine cannot decide, thrown with the HTTP status it maps to. A denial is never
 * one of these: it is a `CheckResult` with `allowed: false`.
 */
export abstract class EngineError extends Error {
  abstract readonly status: 400 | 401 | 403 | 404 | 409 | 503;
  /** The last segment of the problem type, e.g. `policy-not-found`. */
  abstract readonly problem: string;
  abstract readonly title: string;

  toProblem(instance: string): ProblemDetails {
    return {
      type: PROBLEM_BASE + this.problem,
      title: this.title,
      status: this.status,
      detail: this.message,
      instance,
    };
  }
}

/** Bad input (400), with every rejected field. */
export class InputError extends EngineError {
  override readonly name = 'InputError';
  readonly status = 400;
  readonly problem = 'invalid-request';
  readonly title = 'Bad Request';

  constructor(readonly issues: readonly FieldIssue[]) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
  }

  override toProblem(instance: string): ProblemDetails {
    return { ...super.toProblem(instance), errors: this.issues };
  }
}

/** A missing, unknown, revoked or expired API key (401; answer with `WWW-Authenticate: Bearer`). */
export class AuthenticationError extends EngineError {
  override readonly name = 'AuthenticationError';
  readonly status = 401;
  readonly problem = 'unauthorized';
  readonly title = 'Unauthorized';

  constructor(readonly failure: 'missing' | 'invalid' | 'expired') {
    super(
      failure === 'missing'
        ? 'An API key is required: Authorization: Bearer <key>.'
        : failure === 'expired'
          ? 'The API key has expired.'
          : 'The API key is not valid (unknown or revoked).',
    );
  }
}

/** A key that may not use that policy, or lacks the scope the operation needs (403). */
export class ForbiddenError extends EngineError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
  readonly problem = 'forbidden';
  readonly title = 'Forbidden';
}

/** No policy of that name in the key's tenant; another tenant's policies are never seen (404). */
export class PolicyNotFoundError extends EngineError {
  override readonly name = 'PolicyNotFoundError';
  readonly status = 404;
  readonly problem = 'policy-not-found';
  readonly title = 'Not Found';

  constructor(readonly policy: string) {
    super(`No policy named ${JSON.stringify(policy)}.`);
  }
}

/**
 * No reservation of that id: malformed, another tenant's, of a policy that is gone, unknown, or
 * expired (an unsettled reservation stands at its estimate once expired) (404). Every case
 * answers the same, so an id reveals nothing about another tenant.
 */
export class ReservationNotFoundError extends EngineError {
  override readonly name = 'ReservationNotFoundError';
  readonly status = 404;
  readonly problem = 'reservation-not-found';
  readonly title = 'Not Found';

  constructor() {
    super(
      'No reservation with that id: unknown, or expired (an unsettled reservation counts at its estimate).',
    );
  }
}

/**
 * A lease id that is malformed, another tenant's or of a policy that is gone (404). A lease that
 * was released before or has expired is not an error: the release answers `released: false`.
 */
export class LeaseNotFoundError extends EngineError {
  override readonly name = 'LeaseNotFoundError';
  readonly status = 404;
  readonly problem = 'lease-not-found';
  readonly title = 'Not Found';

  constructor() {
    super('No lease with that id.');
  }
}

/** A settle on a policy without `reservations` (409): its checks charge their cost for good. */
export class ReservationsDisabledError extends EngineError {
  override readonly name = 'ReservationsDisabledError';
  readonly status = 409;
  readonly problem = 'reservations-disabled';
  readonly title = 'Conflict';

  constructor(readonly policy: string) {
    super(
      `Policy ${JSON.stringify(policy)} does not take reservations, so there is nothing to settle.`,
    );
  }
}

/**
 * Redis could not answer what the request needs and no fail mode applies: authenticating or
 * resolving a policy that is not cached, an inspect, a reset, a settle or a release (503).
 */
export class UnavailableError extends EngineError {
  override readonly name = 'UnavailableError';
  readonly status = 503;
  readonly problem = 'temporary-reduced-capacity';
  readonly title = 'Service Unavailable';

  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
