import { RETRY_NEVER, toDecision } from '../decision';
import type { SlidingWindowLogRule } from '../rule-spec';
import { settled, withCommit, type ModelResult, type SettleStep } from './model';

/** One admitted request: its time, cost and sequence number (the script's member `<seq>:<cost>`). */
export interface SlidingWindowLogEntry {
  atUs: number;
  cost: number;
  seq: number;
}

export interface SlidingWindowLogState {
  algorithm: 'sliding_window_log';
  /** Admitted requests still stored (the next commit prunes those out of the window). */
  entries: SlidingWindowLogEntry[];
  /** The last sequence number given (0 for none). */
  seq: number;
}

/**
 * Every admitted request is logged with its cost; the requests of (now - window, now] count.
 * A denied cost passes once enough of the oldest entries have left the window.
 */
export function slidingWindowLogModel(
  state: SlidingWindowLogState | undefined,
  rule: SlidingWindowLogRule,
  nowUs: number,
  cost: number,
): ModelResult<SlidingWindowLogState> {
  const windowUs = rule.windowMs * 1000;
  const live = liveEntries(state, nowUs - windowUs);
  const used = live.reduce((sum, entry) => sum + entry.cost, 0);
  const allowed = cost <= rule.limit && used + cost <= rule.limit;
  let retryUs = 0;
  if (cost > rule.limit) {
    retryUs = RETRY_NEVER;
  } else if (!allowed) {
    let released = 0;
    const excess = used + cost - rule.limit;
    const freeing = live.find((entry) => (released += entry.cost) >= excess);
    retryUs = (freeing?.atUs ?? nowUs) + windowUs - nowUs;
  }
  const seq = (state?.seq ?? 0) + 1;
  const entries = allowed && cost > 0 ? [...live, { atUs: nowUs, cost, seq }] : live;
  const resetAtUs = resetAt(entries, windowUs, nowUs);
  const decision = toDecision({
    allowed,
    limit: rule.limit,
    remaining: rule.limit - used - (allowed ? cost : 0),
    resetAtUs,
    retryUs,
    delayUs: 0,
  });
  return withCommit(
    decision,
    cost,
    { algorithm: 'sliding_window_log', entries, seq },
    resetAtUs - nowUs,
  );
}

/**
 * While the charged entry (`charged`) is in the window its cost becomes the actual cost (removed
 * at 0); once it has left, an overrun is a new entry now with the delta and a refund does nothing.
 */
export function slidingWindowLogSettle(
  state: SlidingWindowLogState | undefined,
  rule: SlidingWindowLogRule,
  nowUs: number,
  charged: SlidingWindowLogEntry,
  delta: number,
): SettleStep<SlidingWindowLogState> {
  const windowUs = rule.windowMs * 1000;
  const live = liveEntries(state, nowUs - windowUs);
  const held = live.find(
    (e) => e.seq === charged.seq && e.cost === charged.cost && e.atUs === charged.atUs,
  );
  if (delta < 0 && !held) return { charged: 0 };
  let seq = state?.seq ?? 0;
  const entries = live.filter((entry) => entry !== held);
  if (held) {
    if (held.cost + delta > 0) entries.push({ ...held, cost: held.cost + delta });
  } else {
    seq += 1;
    entries.push({ atUs: nowUs, cost: delta, seq });
  }
  entries.sort((a, b) => a.atUs - b.atUs);
  return settled(
    delta,
    { algorithm: 'sliding_window_log', entries, seq },
    resetAt(entries, windowUs, nowUs) - nowUs,
  );
}

/** Entries in the window (`atUs > cutoff`), oldest first. */
function liveEntries(
  state: SlidingWindowLogState | undefined,
  cutoffUs: number,
): SlidingWindowLogEntry[] {
  return (state?.entries ?? [])
    .filter((entry) => entry.atUs > cutoffUs)
    .sort((a, b) => a.atUs - b.atUs);
}

/** The newest entry's time plus the window (empty again), or now for none. */
function resetAt(entries: readonly SlidingWindowLogEntry[], windowUs: number, nowUs: number) {
  const newest = entries.reduce<number | undefined>(
    (max, entry) => Math.max(max ?? entry.atUs, entry.atUs),
    undefined,
  );
  return newest === undefined ? nowUs : newest + windowUs;
}
