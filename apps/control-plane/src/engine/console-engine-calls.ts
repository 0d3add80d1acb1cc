import {
  type CheckResult,
  type DecisionEngine,
  InputError,
  PolicyNotFoundError,
  UnavailableError,
} from '@sluice/engine';
import type { ApiKeyRecord } from '@sluice/policy';
import type { AuthUser } from '../auth/auth-user';
import { AppError, badUserInputOf } from '../graphql/app-error';

/** The console's key for `user` in the tenant: never stored, never published. */
export function consoleKey(user: AuthUser, tenantId: string): ApiKeyRecord {
  return { id: `console-${user.id}`, tenantId, policies: null, scopes: ['check', 'admin'] };
}

/** An engine call, its errors as the API's: `path` prefixes the fields of bad input. */
export async function engineCall<T>(call: () => Promise<T>, path: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PolicyNotFoundError) {
      throw AppError.notFound('The tenant has no published policy of this name.');
    }
    if (error instanceof InputError) {
      throw badUserInputOf(
        error.issues.map((issue) => ({ field: path + issue.path, message: issue.message })),
        { field: `${path}identifier`, message: error.message },
      );
    }
    if (error instanceof UnavailableError) throw AppError.unavailable(error.message);
    throw error;
  }
}

/**
 * An identifier's state, read for the console: a read, not a decision a fail mode may answer,
 * so one more try after a Redis stall before SERVICE_UNAVAILABLE.
 */
export function consoleInspect(
  engine: DecisionEngine,
  request: Parameters<DecisionEngine['inspect']>[0],
  path: string,
): Promise<CheckResult> {
  const inspect = () => engine.inspect(request);
  return engineCall(
    () =>
      inspect().catch((error: unknown) => {
        if (error instanceof UnavailableError) return inspect();
        throw error;
      }),
    path,
  );
}
