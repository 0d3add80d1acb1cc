import type { Prisma } from '@sluice/db';

/**
 * `value` as a JSON column stores it (no undefined, dates as strings): what an audit entry keeps,
 * and what a stored version's content compares equal to.
 */
export function asJson<T = Prisma.InputJsonObject>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
