import type { UsageMinute as UsageMinuteRow } from '@sluice/db';
import type { UsageTotals as Counts } from '@sluice/usage';
import type { UsagePoint, UsageRuleCount, UsageTotals } from './models/usage.model';

/** How long the data plane keeps per-second counters in Redis: its default retention (s). */
export const SECONDS_RETENTION = 900;
/** Seconds this close to leaving Redis are not counted on: a read takes a moment. */
const RETENTION_MARGIN_SECONDS = 5;

/** The first epoch second whose counters are surely still in Redis at `nowSecond`. */
export function firstRetainedSecond(nowSecond: number): number {
  return nowSecond - SECONDS_RETENTION + RETENTION_MARGIN_SECONDS;
}

const byName = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : a > b ? 1 : 0);

function ruleCounts(counts: Record<string, number>): UsageRuleCount[] {
  return Object.entries(counts)
    .sort(byName)
    .map(([rule, count]) => ({ rule, count }));
}

export function toTotals(counts: Counts): UsageTotals {
  return {
    allowed: counts.allowed,
    denied: counts.denied,
    deniedByReason: Object.entries(counts.deniedByReason)
      .sort(byName)
      .map(([reason, count]) => ({ reason, count })),
    deniedByRule: ruleCounts(counts.deniedByRule),
    shadowDenied: counts.shadowDenied,
    shadowDeniedByRule: ruleCounts(counts.shadowDeniedByRule),
    candidateDenied: counts.candidateDenied,
    candidateDeniedByRule: ruleCounts(counts.candidateDeniedByRule),
    failOpen: counts.failOpen,
    cost: counts.cost,
  };
}

export function toPoint(atMs: number, counts: Counts): UsagePoint {
  return { at: new Date(atMs), ...toTotals(counts) };
}

/** A JSON map of counts; entries that are not counts (never written so) are left out. */
function countMap(value: unknown): Record<string, number> {
  const counts: Record<string, number> = {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [name, count] of Object.entries(value)) {
      if (typeof count === 'number' && Number.isFinite(count)) counts[name] = count;
    }
  }
  return counts;
}

/** A `UsageMinute` row's counts. */
export function rowCounts(row: UsageMinuteRow): Counts {
  return {
    allowed: Number(row.allowed),
    denied: Number(row.denied),
    deniedByReason: countMap(row.deniedByReason),
    deniedByRule: countMap(row.deniedByRule),
    shadowDenied: Number(row.shadowDenied),
    shadowDeniedByRule: countMap(row.shadowDeniedByRule),
    candidateDenied: Number(row.candidateDenied),
    candidateDeniedByRule: countMap(row.candidateDeniedByRule),
    failOpen: Number(row.failOpen),
    cost: Number(row.cost),
  };
}
