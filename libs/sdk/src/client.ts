import {
  errorForStatus,
  PROBLEM_BASE,
  RateLimitedError,
  SluiceError,
  UnavailableError,
} from './errors';
import type {
  CheckRequest,
  CheckResult,
  ProblemDetails,
  RateLimitHeaders,
  ReleaseRequest,
  ReleaseResult,
  SettleRequest,
  SettleResult,
} from './types';
import { SDK_VERSION } from './version';

/**
 * What a check does when the data plane cannot decide (no connection, no answer within
 * `timeoutMs`, a 5xx answer): `open` answers an allowed result with `reason: 'client-fail-open'`,
 * `closed` throws `UnavailableError`.
 */
export type FailMode = 'open' | 'closed';

export type Operation = 'check' | 'inspect' | 'reset' | 'settle' | 'release';

export interface SluiceClientOptions {
  /** The data plane's base URL, e.g. `http://sluice-data-plane:4100` (a path prefix is kept). */
  baseUrl: string;
  /** An API key secret (`sk_live_…`) with the `check` scope (`admin` for `reset`). */
  apiKey: string;
  /** Per request, connection and body included; default 1000. */
  timeoutMs?: number;
  /** Default `open`, like a policy's own `failMode`. */
  failMode?: FailMode;
  /** Default the global `fetch` (Node's undici, which keeps connections alive). */
  fetch?: typeof globalThis.fetch;
  /** Your application's product token, sent before the SDK's in `User-Agent`. */
  userAgent?: string;
  /**
   * Told about failures the client absorbs instead of throwing: checks answered by
   * `failMode: 'open'`, and the settle and release that `limit()` and `finish()` make.
   */
  onError?: (error: SluiceError, operation: Operation) => void;
}

export interface RequestOptions {
  /** Aborts the request; its reason is thrown as is (an abort is not an outage: no fail mode). */
  signal?: AbortSignal;
  /** This request's timeout instead of the client's. */
  timeoutMs?: number;
}

export interface LimitOptions<T> {
  policy: string;
  identifier: string;
  /** The cost checked (and reserved) before `fn` runs, e.g. the most tokens the call can use: 1..1e9. */
  estimate: number;
  /** The real cost, from `fn`'s result (e.g. the LLM response's token usage): an integer 0..1e9. */
  cost: (result: T) => number;
  /** Settled when `fn` (or `cost`) throws; default the estimate, so a failure cannot escape. */
  costOnError?: number;
  signal?: AbortSignal;
}

/** A check in gateway mode: allowed with its result, or the data plane's refusal to send on. */
export type Enforcement =
  | { allowed: true; result: CheckResult }
  | {
      allowed: false;
      /** 429 `rate-limited`, or 403 `tenant-suspended`. */
      status: number;
      problem: ProblemDetails;
      headers: RateLimitHeaders;
    };

interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON; undefined for an empty or non-JSON body. */
  body: unknown;
}

const MAX_COST = 1e9;
const DEFAULT_TIMEOUT_MS = 1000;

/** The data plane's header names (lowercase, as `Headers` gives them) → the names to send on. */
const RATE_LIMIT_HEADERS: [string, keyof RateLimitHeaders][] = [
  ['x-ratelimit-limit', 'X-RateLimit-Limit'],
  ['x-ratelimit-remaining', 'X-RateLimit-Remaining'],
  ['x-ratelimit-reset', 'X-RateLimit-Reset'],
  ['ratelimit-policy', 'RateLimit-Policy'],
  ['ratelimit', 'RateLimit'],
  ['retry-after', 'Retry-After'],
];

/** Refusals that are verdicts on the identifier, not errors of the request. */
const DENIAL_TYPES = new Set([`${PROBLEM_BASE}rate-limited`, `${PROBLEM_BASE}tenant-suspended`]);

function rateLimitHeaders(headers: Headers): RateLimitHeaders {
  const picked: RateLimitHeaders = {};
  for (const [from, to] of RATE_LIMIT_HEADERS) {
    const value = headers.get(from);
    if (value !== null) picked[to] = value;
  }
  return picked;
}

function problemOf(body: unknown): ProblemDetails | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { type, status } = body as Record<string, unknown>;
  return typeof type === 'string' && typeof status === 'number'
    ? (body as ProblemDetails)
    : undefined;
}

function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  return value !== null && /^\d+$/.test(value) ? Number(value) * 1000 : undefined;
}

function assertCost(value: number, what: string, min = 0): number {
  if (!Number.isInteger(value) || value < min || value > MAX_COST) {
    throw new RangeError(
      `${what} must be an integer from ${min} to ${MAX_COST}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * A client of the Sluice data plane. One per process: it holds no connections itself, the
 * global `fetch` pools and reuses them (keep-alive). Checks are never retried (a check that timed
 * out may have been charged); settle and release are idempotent and safe to repeat.
 */
export class SluiceClient {
  readonly failMode: FailMode;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof globalThis.fetch;
  private readonly headers: Record<string, string>;
  private readonly onError: SluiceClientOptions['onError'];

  constructor(options: SluiceClientOptions) {
    const url = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : undefined;
    if ((url?.protocol !== 'http:' && url?.protocol !== 'https:') || url.search || url.hash) {
      throw new TypeError(
        `baseUrl must be an http(s) URL without query or fragment, got ${JSON.stringify(options.baseUrl)}`,
      );
    }
    if (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new TypeError('apiKey must be a non-empty API key secret (printable ASCII)');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
      throw new RangeError(`timeoutMs must be a positive integer, got ${String(timeoutMs)}`);
    }
    if (options.userAgent !== undefined && !/^[\x20-\x7e]+$/.test(options.userAgent)) {
      throw new TypeError('userAgent must be printable ASCII (a header value)');
    }
    const failMode = options.failMode ?? 'open';
    if (failMode !== 'open' && failMode !== 'closed') {
      throw new TypeError(`failMode must be open or closed, got ${JSON.stringify(failMode)}`);
    }
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
    this.failMode = failMode;
    // the global is looked up per call, and never called as a method of this client
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.onError = options.onError;
    const product = `sluice-sdk-node/${SDK_VERSION}`;
    this.headers = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json, application/problem+json',
      'user-agent': options.userAgent ? `${options.userAgent} ${product}` : product,
    };
  }

  /**
   * Decides one request (`POST /v1/check`). A denial is a result (`allowed: false`), not an
   * error; 4xx answers throw their typed error; when the data plane cannot decide, `failMode`
   * answers.
   */
  async check(request: CheckRequest, options: RequestOptions = {}): Promise<CheckResult> {
    try {
      return this.result(await this.call('POST', '/v1/check', request, options));
    } catch (error) {
      return this.failOpen(error, request);
    }
  }

  /**
   * A check in gateway mode (`Prefer: gateway`): a denial comes back as the data plane's problem
   * (429 `rate-limited` or 403 `tenant-suspended`) with the rate-limit headers, ready to answer a
   * caller with. What the middleware and the Nest guard use.
   */
  async enforce(request: CheckRequest, options: RequestOptions = {}): Promise<Enforcement> {
    try {
      const answer = await this.send('POST', '/v1/check', request, options, { prefer: 'gateway' });
      const problem = problemOf(answer.body);
      if (problem && DENIAL_TYPES.has(problem.type)) {
        return {
          allowed: false,
          status: answer.status,
          problem,
          headers: rateLimitHeaders(answer.headers),
        };
      }
      return { allowed: true, result: this.result(this.ok(answer)) };
    } catch (error) {
      return { allowed: true, result: this.failOpen(error, request) };
    }
  }

  /** An identifier's current state under a policy, consuming nothing (`GET /v1/limits/…`). */
  async inspect(
    policy: string,
    identifier: string,
    options: RequestOptions = {},
  ): Promise<CheckResult> {
    return this.result(
      await this.call('GET', this.limitsPath(policy, identifier), undefined, options),
    );
  }

  /** Forgets an identifier's state under a policy; needs a key with the `admin` scope. */
  async reset(policy: string, identifier: string, options: RequestOptions = {}): Promise<void> {
    await this.call('DELETE', this.limitsPath(policy, identifier), undefined, options);
  }

  /**
   * Settles a reservation with what the call really cost (`POST /v1/settle`): an overrun is
   * charged (even into debt), unused cost refunded. Idempotent: a repeat changes nothing and says
   * `alreadySettled: true`. Unknown or expired ids throw `NotFoundError`.
   */
  async settle(request: SettleRequest, options: RequestOptions = {}): Promise<SettleResult> {
    return (await this.call('POST', '/v1/settle', request, options)).body as SettleResult;
  }

  /** Frees a concurrency lease (`POST /v1/release`); `released: false` when it already was. */
  async release(request: ReleaseRequest, options: RequestOptions = {}): Promise<ReleaseResult> {
    return (await this.call('POST', '/v1/release', request, options)).body as ReleaseResult;
  }

  /**
   * Settles the check's reservation at `actualCost` (when both exist) and releases its lease
   * (when it took one), concurrently. Never throws: a failure goes to `onError`, and what it
   * leaves behind expires by itself (a reservation counts at its estimate, a lease frees itself).
   */
  async finish(result: CheckResult, actualCost?: number): Promise<void> {
    const { reservationId, leaseId } = result;
    await Promise.all([
      reservationId !== undefined && actualCost !== undefined
        ? this.settle({ reservationId, actualCost }).catch((e: unknown) => this.report(e, 'settle'))
        : undefined,
      leaseId !== undefined
        ? this.release({ leaseId }).catch((e: unknown) => this.report(e, 'release'))
        : undefined,
    ]);
  }

  /**
   * Guards a call whose cost is known only afterwards (an LLM call's tokens): checks (and
   * reserves, and leases) `estimate`, throws `RateLimitedError` when denied, runs `fn`, settles
   * at `cost(result)` and releases. When `fn` or `cost` throws: settles at `costOnError`,
   * releases, and rethrows that error.
   */
  async limit<T>(fn: (check: CheckResult) => T | Promise<T>, options: LimitOptions<T>): Promise<T> {
    const { policy, identifier, signal } = options;
    // a cost of 0 would only peek: no reservation, no lease, nothing guarded
    const estimate = assertCost(options.estimate, 'limit(): estimate', 1);
    const costOnError = assertCost(options.costOnError ?? estimate, 'limit(): costOnError');
    const check = await this.check(
      { policy, identifier, cost: estimate },
      signal ? { signal } : {},
    );
    if (!check.allowed) throw new RateLimitedError(check);
    let value: T;
    let actualCost: number;
    try {
      value = await fn(check);
      actualCost = assertCost(options.cost(value), 'limit(): the value cost() returned');
    } catch (error) {
      await this.finish(check, costOnError);
      throw error;
    }
    await this.finish(check, actualCost);
    return value;
  }

  private limitsPath(policy: string, identifier: string): string {
    return `/v1/limits/${encodeURIComponent(policy)}/${encodeURIComponent(identifier)}`;
  }

  private result(answer: Answer): CheckResult {
    return {
      ...(answer.body as Omit<CheckResult, 'headers'>),
      headers: rateLimitHeaders(answer.headers),
    };
  }

  private failOpen(error: unknown, request: CheckRequest): CheckResult {
    if (!(error instanceof UnavailableError) || this.failMode === 'closed') throw error;
    this.report(error, 'check');
    const now = Date.now();
    return {
      allowed: true,
      policy: request.policy,
      identifier: request.identifier,
      limit: 0,
      remaining: 0,
      resetAt: now,
      retryAfterMs: 0,
      rules: [],
      reason: 'client-fail-open',
      at: now,
      headers: {},
    };
  }

  private report(error: unknown, operation: Operation): void {
    const reported =
      error instanceof SluiceError ? error : new SluiceError(String(error), { cause: error });
    this.onError?.(reported, operation);
  }

  /** `send`, then the typed error of a 4xx answer. */
  private async call(
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions,
  ): Promise<Answer> {
    return this.ok(await this.send(method, path, body, options));
  }

  private ok(answer: Answer): Answer {
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw errorForStatus(answer.status, problemOf(answer.body));
  }

  /**
   * One request. Throws `UnavailableError` when no answer came in time, for a 5xx answer, and for
   * a 2xx answer whose body is not the JSON it should be; returns every other answer.
   */
  private async send(
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    // serialized before the try: a body that cannot be (a BigInt) is a bug, not an outage
    const json = body === undefined ? undefined : JSON.stringify(body);
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...this.headers,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(json === undefined ? {} : { body: json }),
        signal,
      });
      // the body is read within the same timeout, and always, so the connection can be reused
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        throw new UnavailableError(`No answer from the data plane within ${timeoutMs} ms.`, {
          reason: 'timeout',
          cause: error,
        });
      }
      const why = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw new UnavailableError(`The data plane could not be reached: ${String(why)}`, {
        reason: 'network',
        cause: error,
      });
    }
    const answer = {
      status: response.status,
      headers: response.headers,
      body: parseJson(response, text),
    };
    if (answer.status >= 500) {
      const problem = problemOf(answer.body);
      throw new UnavailableError(problem?.detail ?? `The data plane answered ${answer.status}.`, {
        reason: 'server',
        status: answer.status,
        ...(problem ? { problem } : {}),
        retryAfterMs: retryAfterMs(response.headers),
      });
    }
    const success = answer.status >= 200 && answer.status < 300;
    if (
      success &&
      answer.status !== 204 &&
      (typeof answer.body !== 'object' || answer.body === null)
    ) {
      throw new UnavailableError(
        `The answer to ${method} ${path} is not the data plane's (status ${answer.status}, not a JSON object).`,
        { reason: 'invalid-response', status: answer.status },
      );
    }
    return answer;
  }
}

function parseJson(response: Response, text: string): unknown {
  const contentType = response.headers.get('content-type') ?? '';
  if (text === '' || !/\bjson\b/.test(contentType)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
