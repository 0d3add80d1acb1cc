import type { Algorithm, RuleSpec } from '../rule-spec';

/**
 * Arrival patterns the algorithm comparison replays, each over three windows:
 * - `boundary_spike`: `limit` requests just before a window boundary and `limit` just after (at
 *   1/120 of a window either side: 59.5 s and 60.5 s of a minute), the fixed window's weak spot;
 * - `steady_over_limit`: twice the limit per window, evenly spaced;
 * - `bursts`: `limit` requests at once every half window (twice the limit per window, in bursts).
 */
export type ArrivalPattern = 'boundary_spike' | 'steady_over_limit' | 'bursts';

export const ARRIVAL_PATTERNS: readonly ArrivalPattern[] = [
  'boundary_spike',
  'steady_over_limit',
  'bursts',
];

/** Windows every pattern spans. */
export const PATTERN_WINDOWS = 3;

/** The pattern's arrival times, in ms from the start of a window, ascending. */
export function arrivalOffsets(pattern: ArrivalPattern, limit: number, windowMs: number): number[] {
  const span = PATTERN_WINDOWS * windowMs;
  switch (pattern) {
    case 'boundary_spike': {
      const edge = windowMs / 120;
      return [
        ...Array.from({ length: limit }, () => windowMs - edge),
        ...Array.from({ length: limit }, () => windowMs + edge),
      ];
    }
    case 'steady_over_limit': {
      const gap = windowMs / (2 * limit);
      return Array.from({ length: span / gap }, (_, i) => i * gap);
    }
    case 'bursts':
      return Array.from({ length: 2 * PATTERN_WINDOWS }, (_, burst) =>
        Array.from({ length: limit }, () => (burst * windowMs) / 2),
      ).flat();
  }
}

/**
 * Each rate algorithm set to `limit` per `windowMs`: the buckets hold `limit` and refill or leak
 * it over a window, GCRA lets `limit` pass at once, the windows count `limit` per window.
 */
export function comparisonRules(limit: number, windowMs: number): Record<Algorithm, RuleSpec> {
  const perSecond = (limit * 1000) / windowMs;
  return {
    token_bucket: { algorithm: 'token_bucket', capacity: limit, refillPerSecond: perSecond },
    leaky_bucket: { algorithm: 'leaky_bucket', capacity: limit, leakPerSecond: perSecond },
    fixed_window: { algorithm: 'fixed_window', limit, windowMs },
    sliding_window_log: { algorithm: 'sliding_window_log', limit, windowMs },
    sliding_window_counter: { algorithm: 'sliding_window_counter', limit, windowMs },
    gcra: { algorithm: 'gcra', limit, periodMs: windowMs },
  };
}
