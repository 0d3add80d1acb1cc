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
  abstract readonly status: 400 | 401 | 403 | 404 | 503;
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
 * Redis could not answer what the request needs and no fail mode applies: authenticating or
 * resolving a policy that is not cached, an inspect or a reset (503).
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
