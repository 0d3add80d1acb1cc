/**
 * The most of `times` (ms, ascending) that fall within any span of `windowMs` (half-open,
 * `[t, t + windowMs)`): how far an algorithm let a window's traffic exceed its limit.
 */
export function mostInAnyWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= windowMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** How many of `times` (ms from 0) fall in each bucket of `bucketMs` over `spanMs`. */
export function countPerBucket(
  times: readonly number[],
  bucketMs: number,
  spanMs: number,
): number[] {
  const counts = Array.from({ length: Math.ceil(spanMs / bucketMs) }, () => 0);
  for (const time of times) {
    const bucket = Math.floor(time / bucketMs);
    if (bucket >= 0 && bucket < counts.length) counts[bucket]! += 1;
  }
  return counts;
}
