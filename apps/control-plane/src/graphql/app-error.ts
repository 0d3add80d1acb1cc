import { GraphQLError } from 'graphql';

/** The codes a client may see; anything else is masked as INTERNAL_SERVER_ERROR. */
export type AppErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE';

/** One invalid input value: `field` is its path from the argument, e.g. `input.email`. */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * An error meant for the client: its message and extensions are sent as they are. Resolvers and
 * services throw these (through the factories below); every other error is masked.
 */
export class AppError extends GraphQLError {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    extensions: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...extensions } });
    this.name = 'AppError';
  }

  /** The first issue names the field; `issues` lists every one, for forms. */
  static badUserInput(issues: readonly [FieldIssue, ...FieldIssue[]]): AppError {
    const [first] = issues;
    return new AppError('BAD_USER_INPUT', first.message, { field: first.field, issues });
  }

  static unauthenticated(message = 'Log in to continue.'): AppError {
    return new AppError('UNAUTHENTICATED', message);
  }

  static forbidden(message = 'You are not allowed to do this.'): AppError {
    return new AppError('FORBIDDEN', message);
  }

  static notFound(message: string): AppError {
    return new AppError('NOT_FOUND', message);
  }

  static conflict(message: string, field?: string): AppError {
    return new AppError('CONFLICT', message, field === undefined ? {} : { field });
  }

  /** A store the answer needs (Redis) failed; retrying later may succeed. */
  static unavailable(message: string): AppError {
    return new AppError('SERVICE_UNAVAILABLE', message);
  }

  static tooManyRequests(message: string, retryAfterSeconds: number): AppError {
    return new AppError('TOO_MANY_REQUESTS', message, { retryAfterSeconds });
  }
}

/** BAD_USER_INPUT naming every issue, `fallback` when there is none to name. */
export function badUserInputOf(issues: readonly FieldIssue[], fallback: FieldIssue): AppError {
  const [first = fallback, ...rest] = issues;
  return AppError.badUserInput([first, ...rest]);
}

/** Throws BAD_USER_INPUT naming every issue, if there is any. */
export function throwIfIssues(issues: readonly FieldIssue[]): void {
  const [first, ...rest] = issues;
  if (first) throw AppError.badUserInput([first, ...rest]);
}
