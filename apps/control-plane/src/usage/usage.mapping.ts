import type { UsageMinute as UsageMinuteRow } from '@sluice/db';
import type { UsageTotals as Counts } from '@sluice/usage';
import type { UsagePoint, UsageReasonCount, UsageTotals } from './models/usage.model';

/** How long the data plane keeps per-second counters in Redis: its default retention (s). */
export const SECONDS_RETENTION = 900;
/** Seconds this close to leaving Redis are not counted on: a read takes a moment. */
const RETENTION_MARGIN_SECONDS = 5;

/** The first epoch second whose counters are surely still in Redis at `nowSecond`. */
export function firstRetainedSecond(nowSecond: number): number {
  return nowSecond - SECONDS_RETENTION + RETENTION_MARGIN_SECONDS;
}

export function toTotals(counts: Counts): UsageTotals {
  return {
    allowed: counts.allowed,
    denied: counts.denied,
    deniedByReason: Object.entries(counts.deniedByReason)
      .map(([reason, count]): UsageReasonCount => ({ reason, count }))
      .sort((a, b) => (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0)),
    shadowDenied: counts.shadowDenied,
    candidateDenied: counts.candidateDenied,
    cost: counts.cost,
  };
}

export function toPoint(atMs: number, counts: Counts): UsagePoint {
  return { at: new Date(atMs), ...toTotals(counts) };
}

/** A `UsageMinute` row's counts; reasons that are not counts (never written so) are left out. */
export function rowCounts(row: UsageMinuteRow): Counts {
  const deniedByReason: Record<string, number> = {};
  const reasons: unknown = row.deniedByReason;
  if (typeof reasons === 'object' && reasons !== null && !Array.isArray(reasons)) {
    for (const [reason, count] of Object.entries(reasons)) {
      if (typeof count === 'number' && Number.isFinite(count)) deniedByReason[reason] = count;
    }
  }
  return {
    allowed: Number(row.allowed),
    denied: Number(row.denied),
    deniedByReason,
    shadowDenied: Number(row.shadowDenied),
    candidateDenied: Number(row.candidateDenied),
    cost: Number(row.cost),
  };
}
