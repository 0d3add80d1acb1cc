import { toDecision } from '../decision';
import type { ConcurrencyRule } from '../rule-spec';
import { withCommit, type ModelResult } from './model';

export interface ConcurrencyState {
  algorithm: 'concurrency';
  /** The stored leases (a sorted set: one per nonce), expired ones included until pruned. */
  leases: { nonce: string; expiresAtUs: number }[];
}

/**
 * At most `limit` leases whose expiry is after now; a cost > 0 takes one (one slot whatever the
 * cost), 0 peeks. A denied check waits for the lease whose expiry frees the slot it needs.
 */
export function concurrencyModel(
  state: ConcurrencyState | undefined,
  rule: ConcurrencyRule,
  nowUs: number,
  cost: number,
  lease?: string,
): ModelResult<ConcurrencyState> {
  const stored = state?.leases ?? [];
  const live = stored.filter((l) => l.expiresAtUs > nowUs).map((l) => l.expiresAtUs);
  live.sort((a, b) => a - b);
  const take = cost > 0;
  const need = live.length + (take ? 1 : 0);
  const allowed = need <= rule.limit;
  const expiresAtUs = nowUs + rule.leaseTtlMs * 1000;
  let earliest = live[0];
  let latest = stored.reduce<number | undefined>(
    (max, l) => Math.max(max ?? l.expiresAtUs, l.expiresAtUs),
    undefined,
  );
  let inFlight = live.length;
  let retryUs = 0;
  if (allowed && take) {
    if (lease === undefined) throw new Error('a concurrency check that takes a lease needs it');
    inFlight = need;
    earliest = Math.min(earliest ?? expiresAtUs, expiresAtUs);
    latest = Math.max(latest ?? expiresAtUs, expiresAtUs);
  } else if (!allowed) {
    retryUs = (live[need - rule.limit - 1] ?? nowUs) - nowUs;
  }
  const decision = toDecision({
    allowed,
    limit: rule.limit,
    remaining: rule.limit - inFlight,
    resetAtUs: earliest ?? nowUs,
    retryUs,
    delayUs: 0,
  });
  // the commit prunes the expired leases and adds (or, for a nonce already there, moves) this one
  const leases = [
    ...stored.filter((l) => l.expiresAtUs > nowUs && l.nonce !== lease),
    { nonce: lease ?? '', expiresAtUs },
  ];
  return withCommit(
    decision,
    cost,
    { algorithm: 'concurrency', leases },
    (latest ?? nowUs) - nowUs,
  );
}

/** Removes the lease; `released` when it was still in force. */
export function releaseLeaseModel(
  state: ConcurrencyState | undefined,
  nowUs: number,
  nonce: string,
): { released: boolean; state: ConcurrencyState | undefined } {
  const held = state?.leases.find((l) => l.nonce === nonce);
  if (!state || !held) return { released: false, state };
  return {
    released: held.expiresAtUs > nowUs,
    state: { algorithm: 'concurrency', leases: state.leases.filter((l) => l !== held) },
  };
}
