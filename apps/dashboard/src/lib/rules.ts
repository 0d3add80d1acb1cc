import type { Algorithm } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';

/** A rule's numeric parameters (a fixed window's calendar is apart: it is not a number). */
export type ParamName =
  | 'capacity'
  | 'refillPerSecond'
  | 'leakPerSecond'
  | 'limit'
  | 'windowMs'
  | 'periodMs'
  | 'burst'
  | 'leaseTtlMs';

export interface ParamSpec {
  name: ParamName;
  label: string;
  /** Sent as an integer (the API refuses a fraction). */
  integer: boolean;
}

const capacity: ParamSpec = { name: 'capacity', label: 'Capacity', integer: true };
const limit: ParamSpec = { name: 'limit', label: 'Limit', integer: true };
const windowMs: ParamSpec = { name: 'windowMs', label: 'Window (ms)', integer: true };

/** What each algorithm is made of (the API's `Algorithm`), in the order people read them. */
export const ALGORITHM_PARAMS: Record<Algorithm, ParamSpec[]> = {
  TOKEN_BUCKET: [capacity, { name: 'refillPerSecond', label: 'Refill per second', integer: false }],
  LEAKY_BUCKET: [capacity, { name: 'leakPerSecond', label: 'Leak per second', integer: false }],
  FIXED_WINDOW: [limit, windowMs],
  SLIDING_WINDOW_LOG: [limit, windowMs],
  SLIDING_WINDOW_COUNTER: [limit, windowMs],
  GCRA: [
    limit,
    { name: 'periodMs', label: 'Period (ms)', integer: true },
    { name: 'burst', label: 'Burst', integer: true },
  ],
  CONCURRENCY: [
    { name: 'limit', label: 'In flight', integer: true },
    { name: 'leaseTtlMs', label: 'Lease TTL (ms)', integer: true },
  ],
};

/** An algorithm's name as people read it. */
export const ALGORITHM_LABELS: Record<Algorithm, string> = {
  TOKEN_BUCKET: 'token bucket',
  LEAKY_BUCKET: 'leaky bucket',
  FIXED_WINDOW: 'fixed window',
  SLIDING_WINDOW_LOG: 'sliding window log',
  SLIDING_WINDOW_COUNTER: 'sliding window counter',
  GCRA: 'GCRA',
  CONCURRENCY: 'concurrency',
};

/** Algorithms whose counters are keyed by their window: changing it starts them afresh. */
export const WINDOWED = new Set<Algorithm>([
  'FIXED_WINDOW',
  'SLIDING_WINDOW_LOG',
  'SLIDING_WINDOW_COUNTER',
]);

/** A duration in the largest unit that divides it: 86400000 → "1 day", 1500 → "1,500 ms". */
export function formatDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return `${formatNumber(n)} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${formatNumber(ms)} ms`;
}

/** How a parameter reads in a sentence, and how its value is shown. */
export const DESCRIBED: Record<ParamName, { word: string; unit?: 'duration' | 'rate' }> = {
  capacity: { word: 'capacity' },
  refillPerSecond: { word: 'refill', unit: 'rate' },
  leakPerSecond: { word: 'leak', unit: 'rate' },
  limit: { word: 'limit' },
  windowMs: { word: 'window', unit: 'duration' },
  periodMs: { word: 'period', unit: 'duration' },
  burst: { word: 'burst' },
  leaseTtlMs: { word: 'lease TTL', unit: 'duration' },
};

/** A parameter's value as people read it: a duration, a rate or a number. */
export function formatParam(name: ParamName, value: number): string {
  const unit = DESCRIBED[name].unit;
  if (unit === 'duration') return formatDuration(value);
  if (unit === 'rate') return `${formatNumber(value)}/s`;
  return formatNumber(value);
}

/** The plan's range for a parameter, as a hint: "The plan allows 1 to 50." */
export function boundsHint(param: { min: number | null; max: number | null }): string | null {
  const { min, max } = param;
  if (min !== null && max !== null) {
    return `The plan allows ${formatNumber(min)} to ${formatNumber(max)}.`;
  }
  if (min !== null) return `The plan allows at least ${formatNumber(min)}.`;
  if (max !== null) return `The plan allows at most ${formatNumber(max)}.`;
  return null;
}
