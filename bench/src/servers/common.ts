import { POLICY } from '../workload';

/** Same cap as the data plane: identifiers are 1..256 bytes. */
const MAX_IDENTIFIER_BYTES = 256;
const MAX_COST = 1_000_000_000;
/** Generous for `{policy, identifier, cost}`; anything larger is refused before parsing. */
export const MAX_BODY_BYTES = 4096;

export interface ServerEnv {
  port: number;
  host: string;
  redisUrl: string;
  keyPrefix: string;
}

/** Reads the runner-provided environment; a bad value stops the process with a clear line. */
export function serverEnv(): ServerEnv {
  const problems: string[] = [];
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    problems.push(`PORT: must be an integer 1..65535, got ${JSON.stringify(process.env.PORT)}`);
  }
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL: must be a redis:// URL');
  const keyPrefix = process.env.SLUICE_KEY_PREFIX ?? 'bench:';
  if (!/^[A-Za-z0-9:_-]{0,64}$/.test(keyPrefix)) {
    problems.push('SLUICE_KEY_PREFIX: up to 64 letters, digits, ":", "_" or "-"');
  }
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exit(78);
  }
  return { port, host: process.env.HOST ?? '127.0.0.1', redisUrl, keyPrefix };
}

export interface CheckRequest {
  identifier: string;
  cost: number;
}

/** A refused request: `status` and a message for the client. */
export class CheckInputError extends Error {
  constructor(
    readonly status: 400 | 404 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'CheckInputError';
  }
}

/** Validates `{policy, identifier, cost?}` the way the data plane does (one known policy). */
export function parseCheck(body: unknown): CheckRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CheckInputError(400, 'body must be a JSON object');
  }
  const { policy, identifier, cost = 1 } = body as Record<string, unknown>;
  if (typeof policy !== 'string') throw new CheckInputError(400, 'policy must be a string');
  if (policy !== POLICY) throw new CheckInputError(404, `unknown policy ${JSON.stringify(policy)}`);
  if (
    typeof identifier !== 'string' ||
    identifier.length === 0 ||
    Buffer.byteLength(identifier) > MAX_IDENTIFIER_BYTES
  ) {
    throw new CheckInputError(
      400,
      `identifier must be a string of 1 to ${MAX_IDENTIFIER_BYTES} bytes`,
    );
  }
  if (typeof cost !== 'number' || !Number.isInteger(cost) || cost < 0 || cost > MAX_COST) {
    throw new CheckInputError(400, `cost must be an integer 0..${MAX_COST}`);
  }
  return { identifier, cost };
}

/** The answer the limiting servers give; `limit` is the bucket size. */
export interface CheckAnswer {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: number;
  retryAfterMs: number;
}

/** Stops the server cleanly on the runner's SIGTERM (it stops every process it started by PID). */
export function closeOnSigterm(close: () => Promise<unknown>): void {
  process.once('SIGTERM', () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

/**
 * The answer to an error thrown while handling a check: our validation errors and the
 * framework's own 4xx (bad JSON, body too large: they carry `statusCode`) keep their status and
 * message; anything else means the limiter's store failed.
 */
export function errorAnswer(error: unknown): { status: number; body: { error: string } } {
  if (error instanceof CheckInputError) {
    return { status: error.status, body: { error: error.message } };
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && error instanceof Error) {
    return { status, body: { error: error.message } };
  }
  return { status: 503, body: { error: 'rate limiter unavailable' } };
}
