import type { CombinedError } from 'urql';

/** The control plane's error codes (AppError), as a client sees them. */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR'
  | 'NETWORK';

export interface FieldIssue {
  field: string;
  message: string;
}

export interface ApiError {
  code: ErrorCode;
  message: string;
  /** BAD_USER_INPUT (and some CONFLICTs): the fields concerned, e.g. `input.rules.0.capacity`. */
  issues: FieldIssue[];
}

/** What a failed operation tells a person: its code, message and field issues. */
export function apiError(error: CombinedError): ApiError {
  if (error.networkError) {
    return {
      code: 'NETWORK',
      message: 'The control plane could not be reached. Check your connection and try again.',
      issues: [],
    };
  }
  const first = error.graphQLErrors[0];
  const extensions = (first?.extensions ?? {}) as {
    code?: string;
    field?: string;
    issues?: FieldIssue[];
  };
  const issues =
    extensions.issues ??
    (extensions.field && first ? [{ field: extensions.field, message: first.message }] : []);
  return {
    code: (extensions.code as ErrorCode | undefined) ?? 'INTERNAL_SERVER_ERROR',
    message: first?.message ?? error.message,
    issues,
  };
}

/**
 * Field issues as a form's errors: `input.rules.0.capacity` with prefix `input.` becomes
 * `rules.0.capacity`, the path Mantine's form uses; issues outside the prefix are left out.
 */
export function formErrors(
  issues: readonly FieldIssue[],
  prefix = 'input.',
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    if (!issue.field.startsWith(prefix)) continue;
    const path = issue.field.slice(prefix.length);
    errors[path] ??= issue.message;
  }
  return errors;
}
