import type { Algorithm } from '@/generated/gql/graphql';
import { formatNumber } from './format';

/**
 * The rules of a policy as the console shows and edits them: each algorithm's numeric
 * parameters (the API's `Algorithm`), and how their values read. Shared by the overrides, the
 * policy editor and the plans pages.
 */

/** A rule's numeric parameters (a fixed window's calendar is not a number, so not among them). */
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
  /** Its label in a form (a duration's unit is the form's to say). */
  label: string;
  /** Sent as an integer (the API refuses a fraction). */
  integer: boolean;
}

const capacity: ParamSpec = { name: 'capacity', label: 'Capacity', integer: true };
const limit: ParamSpec = { name: 'limit', label: 'Limit', integer: true };
const windowMs: ParamSpec = { name: 'windowMs', label: 'Window', integer: true };

/** What each algorithm is made of, in the order people read them. */
export const ALGORITHM_PARAMS: Record<Algorithm, ParamSpec[]> = {
  TOKEN_BUCKET: [capacity, { name: 'refillPerSecond', label: 'Refill per second', integer: false }],
  LEAKY_BUCKET: [
    { ...capacity, label: 'Queue capacity' },
    { name: 'leakPerSecond', label: 'Leak per second', integer: false },
  ],
  FIXED_WINDOW: [limit, windowMs],
  SLIDING_WINDOW_LOG: [limit, windowMs],
  SLIDING_WINDOW_COUNTER: [limit, windowMs],
  GCRA: [
    limit,
    { name: 'periodMs', label: 'Period', integer: true },
    { name: 'burst', label: 'Burst', integer: true },
  ],
  CONCURRENCY: [
    { name: 'limit', label: 'In flight', integer: true },
    { name: 'leaseTtlMs', label: 'Lease TTL', integer: true },
  ],
};

/** Every numeric parameter, once. */
export const PARAM_NAMES: ParamName[] = [
  ...new Set(Object.values(ALGORITHM_PARAMS).flatMap((specs) => specs.map((s) => s.name))),
];

/** The algorithms' names as people read them, in the order a form offers them. */
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

/** How a parameter reads in a sentence, and what its value is. */
const DESCRIBED: Record<ParamName, { word: string; unit?: 'duration' | 'rate' }> = {
  capacity: { word: 'capacity' },
  refillPerSecond: { word: 'refill', unit: 'rate' },
  leakPerSecond: { word: 'leak', unit: 'rate' },
  limit: { word: 'limit' },
  windowMs: { word: 'window', unit: 'duration' },
  periodMs: { word: 'period', unit: 'duration' },
  burst: { word: 'burst' },
  leaseTtlMs: { word: 'lease TTL', unit: 'duration' },
};

/** A parameter's name in a sentence: "lease TTL". */
export const paramWord = (name: ParamName): string => DESCRIBED[name].word;

/** Whether a parameter is a duration in ms (entered with a unit), a rate per second, or a count. */
export const paramUnit = (name: ParamName): 'duration' | 'rate' | undefined => DESCRIBED[name].unit;

/** A parameter's value as people read it: a duration, a rate or a number. */
export function formatParam(name: ParamName, value: number): string {
  const unit = DESCRIBED[name].unit;
  if (unit === 'duration') return formatDuration(value);
  if (unit === 'rate') return `${formatNumber(value)}/s`;
  return formatNumber(value);
}
