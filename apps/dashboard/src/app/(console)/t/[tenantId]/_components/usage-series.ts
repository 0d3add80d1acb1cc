/**
 * The overview's figures, apart from React: the ranges it offers, the live per-second series it
 * keeps from the usage subscription, and the cards' rates.
 */

/** The four outcomes the overview plots, as the API counts them per bucket. */
export interface UsageCounts {
  allowed: number;
  denied: number;
  shadowDenied: number;
  candidateDenied: number;
}

/** A bucket of the API's series or of a live snapshot (`at`: its start, ISO 8601). */
export interface UsageBucket extends UsageCounts {
  at: string;
}

export type Resolution = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY';

export const RANGES = ['15m', '1h', '24h', '7d', '90d'] as const;
export type Range = (typeof RANGES)[number];

/**
 * Each range the chart offers, at a resolution that keeps it to at most 900 points. Only the last
 * 15 minutes are live (per second, from the subscription); the others are read from the minute
 * roll-ups once.
 */
export const RANGE_SPECS: Record<
  Range,
  { label: string; words: string; seconds: number; resolution: Resolution; live: boolean }
> = {
  '15m': {
    label: '15 min',
    words: 'the last 15 minutes',
    seconds: 900,
    resolution: 'SECOND',
    live: true,
  },
  '1h': { label: 'Hour', words: 'the last hour', seconds: 3600, resolution: 'MINUTE', live: false },
  '24h': { label: 'Day', words: 'the last day', seconds: 86_400, resolution: 'HOUR', live: false },
  '7d': {
    label: 'Week',
    words: 'the last week',
    seconds: 7 * 86_400,
    resolution: 'HOUR',
    live: false,
  },
  '90d': {
    label: '90 days',
    words: 'the last 90 days',
    seconds: 90 * 86_400,
    resolution: 'DAY',
    live: false,
  },
};

const PER: Record<Resolution, string> = {
  SECOND: 'second',
  MINUTE: 'minute',
  HOUR: 'hour',
  DAY: 'day',
};

/** A range in words with its resolution: "the last hour, per minute". */
export const rangeWithResolution = (range: Range) =>
  `${RANGE_SPECS[range].words}, per ${PER[RANGE_SPECS[range].resolution]}`;

/** Seconds the live chart shows (and the live series keeps). */
export const LIVE_SECONDS = RANGE_SPECS['15m'].seconds;

export const emptyCounts = (): UsageCounts => ({
  allowed: 0,
  denied: 0,
  shadowDenied: 0,
  candidateDenied: 0,
});

const countsOf = (bucket: UsageCounts): UsageCounts => ({
  allowed: bucket.allowed,
  denied: bucket.denied,
  shadowDenied: bucket.shadowDenied,
  candidateDenied: bucket.candidateDenied,
});

/** Seconds a policy card's sparkline spans, at most. */
export const CARD_SECONDS = 60;

/** A policy's per-second counts by epoch second. */
export type SecondSeries = ReadonlyMap<number, UsageCounts>;

/**
 * `series` with the buckets added, the newest `keep` seconds kept (the chart's policy keeps 15
 * minutes, the others what their card shows). Later buckets of the same second replace earlier
 * ones: a snapshot's last second is still counting.
 */
export function mergeSeconds(
  series: SecondSeries,
  buckets: readonly UsageBucket[],
  keep = LIVE_SECONDS,
): SecondSeries {
  if (buckets.length === 0) return series;
  const merged = new Map(series);
  let newest = -Infinity;
  for (const second of merged.keys()) newest = Math.max(newest, second);
  for (const bucket of buckets) {
    const second = Math.floor(Date.parse(bucket.at) / 1000);
    merged.set(second, countsOf(bucket));
    newest = Math.max(newest, second);
  }
  for (const second of merged.keys()) {
    if (second <= newest - keep) merged.delete(second);
  }
  return merged;
}

/**
 * Two readings of the same seconds combined (a query's series and the live feed): a second's
 * counts only grow, so the larger of two readings of an outcome is the newer one — whichever
 * source read a second while it was still counting.
 */
export function combineSeconds(a: SecondSeries, b: SecondSeries): SecondSeries {
  const combined = new Map(a);
  for (const [second, counts] of b) {
    const other = combined.get(second);
    combined.set(
      second,
      other
        ? {
            allowed: Math.max(other.allowed, counts.allowed),
            denied: Math.max(other.denied, counts.denied),
            shadowDenied: Math.max(other.shadowDenied, counts.shadowDenied),
            candidateDenied: Math.max(other.candidateDenied, counts.candidateDenied),
          }
        : counts,
    );
  }
  return combined;
}

/** The series of an API range, by epoch second of each bucket's start. */
export function bucketsBySecond(buckets: readonly UsageBucket[]): SecondSeries {
  return new Map(
    buckets.map((bucket) => [Math.floor(Date.parse(bucket.at) / 1000), countsOf(bucket)]),
  );
}

const LABELS: Record<Resolution, Intl.DateTimeFormat> = {
  SECOND: new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }),
  MINUTE: new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }),
  HOUR: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric' }),
  DAY: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }),
};

/** A bucket's start as the chart's axis reads it, in the reader's time zone. */
export function bucketLabel(second: number, resolution: Resolution): string {
  return LABELS[resolution].format(new Date(second * 1000));
}

/** The newest second of a series, or undefined when it is empty. */
export function newestSecond(series: SecondSeries): number | undefined {
  let newest: number | undefined;
  for (const second of series.keys()) newest = Math.max(newest ?? second, second);
  return newest;
}

/** The `length` seconds up to `end` (included), oldest first, zeros where nothing was counted. */
export function secondsUpTo(
  series: SecondSeries,
  end: number,
  length: number,
): (UsageCounts & { second: number })[] {
  return Array.from({ length }, (_, i) => {
    const second = end - length + 1 + i;
    return { second, ...(series.get(second) ?? emptyCounts()) };
  });
}

/** The sum of each outcome over some buckets. */
export function sumCounts(buckets: readonly UsageCounts[]): UsageCounts {
  const total = emptyCounts();
  for (const bucket of buckets) {
    total.allowed += bucket.allowed;
    total.denied += bucket.denied;
    total.shadowDenied += bucket.shadowDenied;
    total.candidateDenied += bucket.candidateDenied;
  }
  return total;
}

/** A card's headline figures from a policy's last 60 seconds. */
export function minuteRates(lastMinute: UsageCounts): {
  checksPerSecond: number;
  /** Denied ÷ decided, 0 to 1; null without a decision. */
  denialRate: number | null;
} {
  const decided = lastMinute.allowed + lastMinute.denied;
  return {
    checksPerSecond: decided / 60,
    denialRate: decided === 0 ? null : lastMinute.denied / decided,
  };
}

/** The rule with the most denials, if any rule denied. */
export function topRule(
  counts: readonly { rule: string; count: number }[],
): { rule: string; count: number } | undefined {
  let top: { rule: string; count: number } | undefined;
  for (const entry of counts) if (entry.count > 0 && (!top || entry.count > top.count)) top = entry;
  return top;
}
