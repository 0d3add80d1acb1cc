import type { Cluster, Redis } from 'ioredis';
import { UsageInputError } from './errors';
import { topCostKey } from './keys';
import { assertCount, assertScope, count } from './readers';

/** Minutes one `readCostByMinute` call may span (an hour; retention is 15 minutes by default). */
export const MAX_COST_SERIES_MINUTES = 60;

/**
 * What each of `identifiers` charged in each minute from `fromMinute` to `toMinute` (epoch
 * minutes, inclusive), as the heavy hitters of each minute hold it: `costs[i]` is minute
 * `fromMinute + i`, 0 where the identifier was not among that minute's top K. One ZMSCORE per
 * minute, in one pipeline (one tenant's keys: one cluster slot).
 */
export async function readCostByMinute(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  identifiers: readonly string[],
  fromMinute: number,
  toMinute: number,
): Promise<Map<string, number[]>> {
  assertScope(prefix, tenantId, policy);
  assertCount('identifiers', identifiers.length);
  const span = toMinute - fromMinute + 1;
  if (!Number.isSafeInteger(fromMinute) || fromMinute < 0 || !Number.isSafeInteger(toMinute)) {
    throw new UsageInputError('from/to minute: expected integers with 0 <= from <= to');
  }
  if (span < 1 || span > MAX_COST_SERIES_MINUTES) {
    throw new UsageInputError(`from/to minute: 1 to ${MAX_COST_SERIES_MINUTES} minutes per read`);
  }
  const pipeline = redis.pipeline();
  for (let minute = fromMinute; minute <= toMinute; minute += 1) {
    pipeline.zmscore(topCostKey(prefix, tenantId, policy, minute), ...identifiers);
  }
  const replies = (await pipeline.exec()) ?? [];
  const series = new Map(identifiers.map((id) => [id, new Array<number>(span).fill(0)]));
  replies.forEach(([error, reply], minute) => {
    if (error) throw error;
    (reply as (string | null)[]).forEach((score, i) => {
      const costs = series.get(identifiers[i] ?? '');
      if (costs && score !== null) costs[minute] = count(score);
    });
  });
  return series;
}
