import type { ServerResponse } from 'node:http';
import type { SluiceClient } from './client';
import { PROBLEM_BASE, SluiceError, SluiceGuardError, UnavailableError } from './errors';
import type { CheckResult, ProblemDetails, RateLimitHeaders } from './types';

// The framework-neutral part of the Express middleware, the Fastify hook and the Nest guard.

/** What an adapter needs of a request: Express's, Fastify's and Node's all have these. */
export interface RequestLike {
  /** The client address as the framework determined it (its trust-proxy setting applies). */
  ip?: string | undefined;
  url?: string | undefined;
  /** Express: the URL before mounting stripped it. */
  originalUrl?: string | undefined;
}

export interface GuardOptions<Req> {
  /** One client per process, shared: it decides the data plane, the key and the fail mode. */
  client: SluiceClient;
  /** The policy name, or a function choosing it per request. */
  policy: string | ((request: Req) => string);
  /**
   * Who is limited (1 to 256 bytes of UTF-8); default the client address the framework reports
   * (`request.ip`: set Express's `trust proxy` / Fastify's `trustProxy` behind a proxy).
   */
  identifier?: (request: Req) => string | undefined | Promise<string | undefined>;
  /** Units per request, default 1, or a function of the request. */
  cost?: number | ((request: Req) => number);
}

/** Go on with the request, or answer `problem` with `status`; set `headers` either way. */
export type Verdict =
  | { pass: true; headers: RateLimitHeaders; result: CheckResult }
  | { pass: false; status: number; headers: RateLimitHeaders; problem: ProblemDetails };

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const REDUCED_CAPACITY = `${PROBLEM_BASE}temporary-reduced-capacity`;

/** The request's path, the problem's `instance` (the query is left out: it may carry secrets). */
function requestPath(request: RequestLike): string {
  return (request.originalUrl ?? request.url ?? '/').split('?')[0] ?? '/';
}

/**
 * Checks one request in gateway mode. A denial is the data plane's problem (429 `rate-limited`,
 * 403 `tenant-suspended`) with `instance` set to this request's path. When the data plane cannot
 * decide and the client fails closed: 503 (the data plane's `temporary-reduced-capacity` problem
 * when it sent one, else one alike that names nothing internal). Other refusals of the check (a
 * bad key, an unknown policy: configuration, not the caller's fault) throw `SluiceGuardError`,
 * which frameworks answer with 500; errors of the `identifier` function are thrown as they are.
 */
export async function decide<Req extends RequestLike>(
  options: GuardOptions<Req>,
  request: Req,
): Promise<Verdict> {
  const policy = typeof options.policy === 'function' ? options.policy(request) : options.policy;
  const identifier = options.identifier ? await options.identifier(request) : request.ip;
  if (!identifier) {
    throw new TypeError(
      'Sluice: no identifier for this request (no client address); pass an identifier function',
    );
  }
  const cost = typeof options.cost === 'function' ? options.cost(request) : options.cost;
  const instance = requestPath(request);
  try {
    const enforcement = await options.client.enforce({
      policy,
      identifier,
      ...(cost === undefined ? {} : { cost }),
    });
    if (enforcement.allowed) {
      return { pass: true, headers: enforcement.result.headers, result: enforcement.result };
    }
    const { status, headers, problem } = enforcement;
    return { pass: false, status, headers, problem: { ...problem, instance } };
  } catch (error) {
    if (!(error instanceof UnavailableError)) {
      throw error instanceof SluiceError ? new SluiceGuardError(error) : error;
    }
    const retryAfter = error.retryAfterMs === undefined ? undefined : error.retryAfterMs / 1000;
    return {
      pass: false,
      status: 503,
      headers: retryAfter === undefined ? {} : { 'Retry-After': String(Math.ceil(retryAfter)) },
      problem:
        error.problem?.type === REDUCED_CAPACITY
          ? { ...error.problem, instance }
          : {
              type: REDUCED_CAPACITY,
              title: 'Service Unavailable',
              status: 503,
              detail: 'Rate limits cannot be checked right now, so requests are refused.',
              instance,
            },
    };
  }
}

/**
 * Releases the check's lease (if it took one) once the response is done or the connection
 * closed, so a concurrency rule counts the requests in flight.
 */
export function finishOnClose(
  client: SluiceClient,
  result: CheckResult,
  response: ServerResponse,
): void {
  if (result.leaseId === undefined) return;
  const finish = () => void client.finish(result);
  if (response.closed) finish();
  else response.once('close', finish);
}
