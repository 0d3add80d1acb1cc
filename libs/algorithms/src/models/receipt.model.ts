import type { RuleSpec } from '../rule-spec';
import type { RuleState } from './composite.model';
import type { SlidingWindowLogEntry } from './sliding-window-log.model';

/**
 * What a settle needs of one charged rule: the rule as it was charged (an override or a policy
 * change since then does not move the adjustment), and where the charge went - the window's
 * start (fixed window, sliding counter) or the log entry; buckets and GCRA need nothing more.
 */
export interface RuleReceipt {
  rule: RuleSpec;
  startUs?: number;
  entry?: SlidingWindowLogEntry;
}

/** A reservation record: written with the charge, settled once, expiring after its TTL. */
export interface ReservationRecord {
  estimate: number;
  settled: boolean;
  /** The settle's actual cost, once settled. */
  actualCost?: number;
  /** By rule name. */
  receipts: Readonly<Record<string, RuleReceipt>>;
}

/** The receipt of a rate rule's commit at `nowUs`, from the state it left. */
export function ruleReceipt(rule: RuleSpec, committed: RuleState, nowUs: number): RuleReceipt {
  if (committed.algorithm === 'fixed_window' || committed.algorithm === 'sliding_window_counter') {
    return { rule, startUs: committed.startUs };
  }
  if (committed.algorithm === 'sliding_window_log') {
    const entry = committed.entries.find((e) => e.seq === committed.seq && e.atUs === nowUs);
    if (entry) return { rule, entry };
  }
  return { rule };
}
