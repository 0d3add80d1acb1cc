import type { Algorithm } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { formatDuration } from '@/lib/rules';

/** A rule's values as the API gives them (`Rule`) or the editor holds them; unset: null. */
export interface ReadableRule {
  algorithm: Algorithm;
  capacity?: number | null;
  refillPerSecond?: number | null;
  leakPerSecond?: number | null;
  limit?: number | null;
  windowMs?: number | null;
  periodMs?: number | null;
  burst?: number | null;
  leaseTtlMs?: number | null;
  calendar?: { unit: string; timeZone: string } | null;
}

const set = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/** "per day", "per 5 minutes": a window's length after "per". */
function per(ms: number): string {
  const duration = formatDuration(ms);
  return `per ${duration.startsWith('1 ') ? duration.slice(2) : duration}`;
}

/** "2 per second", or "1 every 2 seconds" for a slow rate that reads better that way. */
function rate(perSecond: number): string {
  const every = 1000 / perSecond;
  if (perSecond < 1 && Number.isInteger(Math.round(every * 1e6) / 1e6)) {
    const duration = formatDuration(Math.round(every));
    return `1 every ${duration.startsWith('1 ') ? duration.slice(2) : duration}`;
  }
  return `${formatNumber(perSecond)} per second`;
}

/**
 * A rule in one plain line, e.g. a token bucket of capacity 5 refilling 1/s: "5 at once, then 1
 * per second". Null while a value it needs is missing (the form is being filled in).
 */
export function ruleReading(rule: ReadableRule): string | null {
  const n = formatNumber;
  switch (rule.algorithm) {
    case 'TOKEN_BUCKET':
      return set(rule.capacity) && set(rule.refillPerSecond)
        ? `${n(rule.capacity)} at once, then ${rate(rule.refillPerSecond)}`
        : null;
    case 'LEAKY_BUCKET':
      return set(rule.capacity) && set(rule.leakPerSecond)
        ? `queues up to ${n(rule.capacity)}, leaving at ${rate(rule.leakPerSecond)}`
        : null;
    case 'FIXED_WINDOW':
      if (!set(rule.limit)) return null;
      if (rule.calendar) {
        if (!rule.calendar.timeZone) return null;
        const unit = rule.calendar.unit.toLowerCase();
        return `${n(rule.limit)} per calendar ${unit} (${rule.calendar.timeZone})`;
      }
      return set(rule.windowMs) ? `${n(rule.limit)} ${per(rule.windowMs)}` : null;
    case 'SLIDING_WINDOW_LOG':
    case 'SLIDING_WINDOW_COUNTER':
      return set(rule.limit) && set(rule.windowMs)
        ? `${n(rule.limit)} in any ${formatDuration(rule.windowMs)}`
        : null;
    case 'GCRA': {
      if (!set(rule.limit) || !set(rule.periodMs)) return null;
      // the API's default burst is the limit
      const burst = set(rule.burst) ? rule.burst : rule.limit;
      return `${n(rule.limit)} ${per(rule.periodMs)}, spaced evenly, up to ${n(burst)} at once`;
    }
    case 'CONCURRENCY':
      return set(rule.limit) && set(rule.leaseTtlMs)
        ? `${n(rule.limit)} at once, each held up to ${formatDuration(rule.leaseTtlMs)}`
        : null;
  }
}
