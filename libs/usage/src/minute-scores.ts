import type { Cluster, Redis } from 'ioredis';
import { topCostKey, topDeniedKey } from './keys';
import { assertCount, assertRange, assertScope, count, MAX_READ_MINUTES } from './readers';

type MinuteKey = (prefix: string, tenantId: string, policy: string, minute: number) => string;

/** Each of `identifiers` → its score in each minute: `[i]` is minute `fromMinute + i`. */
export type ScoresByMinute = Map<string, number[]>;

/**
 * What each of `identifiers` charged in each minute from `fromMinute` to `toMinute` (epoch
 * minutes, inclusive), as each minute's heavy hitters hold it (0 where it was not among them).
 */
export function readCostByMinute(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  identifiers: readonly string[],
  fromMinute: number,
  toMinute: number,
): Promise<ScoresByMinute> {
  const range = { fromMinute, toMinute };
  return readScores(topCostKey, redis, prefix, tenantId, policy, identifiers, range);
}

/** The same for denials, as each minute's most denied hold them. */
export function readDeniedByMinute(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  identifiers: readonly string[],
  fromMinute: number,
  toMinute: number,
): Promise<ScoresByMinute> {
  const range = { fromMinute, toMinute };
  return readScores(topDeniedKey, redis, prefix, tenantId, policy, identifiers, range);
}

/**
 * One ZMSCORE per minute for just these identifiers, in one pipeline (one tenant's keys: one
 * cluster slot).
 */
async function readScores(
  keyOf: MinuteKey,
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  identifiers: readonly string[],
  { fromMinute, toMinute }: { fromMinute: number; toMinute: number },
): Promise<ScoresByMinute> {
  assertScope(prefix, tenantId, policy);
  assertRange('minute', fromMinute, toMinute, MAX_READ_MINUTES);
  assertCount('identifiers', identifiers.length);
  const span = toMinute - fromMinute + 1;
  const pipeline = redis.pipeline();
  for (let minute = fromMinute; minute <= toMinute; minute += 1) {
    pipeline.zmscore(keyOf(prefix, tenantId, policy, minute), ...identifiers);
  }
  const replies = (await pipeline.exec()) ?? [];
  const series: ScoresByMinute = new Map(
    identifiers.map((id) => [id, new Array<number>(span).fill(0)]),
  );
  replies.forEach(([error, reply], minute) => {
    if (error) throw error;
    (reply as (string | null)[]).forEach((score, i) => {
      const scores = series.get(identifiers[i] ?? '');
      if (scores && score !== null) scores[minute] = count(score);
    });
  });
  return series;
}
