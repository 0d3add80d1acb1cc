import { newNonce } from '../ids';
import { ruleKey } from '../rule-key';
import type { Algorithm } from '../rule-spec';
import { ruleKeys } from '../script-args';
import type { RedisLike } from '../scripts';
import { countPerBucket, mostInAnyWindow } from './admission-stats';
import {
  arrivalOffsets,
  comparisonRules,
  PATTERN_WINDOWS,
  type ArrivalPattern,
} from './arrival-patterns';
import { replayInRedis } from './replay';

/** Buckets per window in the comparison's series. */
export const BUCKETS_PER_WINDOW = 10;

export interface ComparisonRequest {
  pattern: ArrivalPattern;
  /** Requests per window, 1..`MAX_COMPARISON_LIMIT`. */
  limit: number;
  windowMs: number;
  /** Where the scratch keys go, e.g. `sluice:compare:` (see `RuleKeyParts.prefix`). */
  keyPrefix: string;
  /** The replay's start: rounded up to a window boundary (the fixed window's edges). */
  now: number;
}

export interface AlgorithmAdmissions {
  algorithm: Algorithm;
  admitted: number;
  /** Admitted per bucket (a tenth of a window), over the pattern's three windows. */
  perBucket: number[];
  /** The most admitted within any one window's length, anywhere in the replay. */
  mostInAnyWindow: number;
}

export interface Comparison {
  bucketMs: number;
  /** Arrivals per bucket. */
  arrivals: number[];
  algorithms: AlgorithmAdmissions[];
}

/** Arrivals one comparison replays at most are 6 × this limit, per algorithm. */
export const MAX_COMPARISON_LIMIT = 100;

/**
 * Replays one arrival pattern through each rate algorithm's Lua script, set to the same limit per
 * window, with an injected clock on scratch keys (deleted after): what each admits over time, and
 * the most it admitted in any window's length (a fixed window lets up to twice its limit through
 * around an edge; a sliding log never more than its limit). The algorithms run side by side, the
 * arrivals of each one after another.
 */
export async function compareAlgorithms(
  redis: RedisLike,
  request: ComparisonRequest,
): Promise<Comparison> {
  const { pattern, limit, windowMs, keyPrefix } = request;
  const startMs = Math.ceil(request.now / windowMs) * windowMs;
  const offsets = arrivalOffsets(pattern, limit, windowMs);
  const spanMs = PATTERN_WINDOWS * windowMs;
  const bucketMs = windowMs / BUCKETS_PER_WINDOW;
  const run = newNonce();
  const rules = Object.entries(comparisonRules(limit, windowMs));
  const algorithms = await Promise.all(
    rules.map(async ([algorithm, rule]): Promise<AlgorithmAdmissions> => {
      const key = ruleKey({
        prefix: keyPrefix,
        scope: 'compare',
        identifier: run,
        rule: algorithm,
      });
      try {
        const admitted = await replayInRedis(redis, key, rule, startMs, offsets);
        const times = offsets.filter((_, i) => admitted[i]);
        return {
          algorithm: rule.algorithm,
          admitted: times.length,
          perBucket: countPerBucket(times, bucketMs, spanMs),
          mostInAnyWindow: mostInAnyWindow(times, windowMs),
        };
      } finally {
        await redis.del(...ruleKeys(rule, key));
      }
    }),
  );
  return { bucketMs, arrivals: countPerBucket(offsets, bucketMs, spanMs), algorithms };
}
