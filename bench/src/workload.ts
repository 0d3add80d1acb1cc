/** What every server under test is asked, and the limit the rate-limiting ones enforce. */

export const POLICY = 'bench';
export const CHECK_PATH = '/v1/check';
export const IDENTIFIER_COUNT = 10_000;

/**
 * One token bucket per identifier: 1,000 tokens, refilled at 100/s. With requests spread over
 * 10,000 identifiers, even 50,000 req/s is 5 req/s per identifier, far below the refill rate, so
 * nearly every check is allowed: the bench measures the cost of deciding, not of denying.
 */
export const BENCH_LIMIT = { capacity: 1_000, refillPerSecond: 100 } as const;

/** Same-length identifiers, so every request body has the same size. */
export function identifier(index: number): string {
  return `user-${String(index % IDENTIFIER_COUNT).padStart(5, '0')}`;
}

export function checkBody(index: number): string {
  return JSON.stringify({ policy: POLICY, identifier: identifier(index), cost: 1 });
}
