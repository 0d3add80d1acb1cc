import type { SettledRule, SettleResult } from '../decision';
import type { AnyRuleSpec } from '../rule-spec';
import { evaluateRule, stateOf, type RuleState, type StateWrite } from './composite.model';
import { fixedWindowSettle } from './fixed-window.model';
import { gcraSettle } from './gcra.model';
import { leakyBucketSettle } from './leaky-bucket.model';
import type { SettleStep } from './model';
import type { ReservationRecord, RuleReceipt } from './receipt.model';
import { slidingWindowCounterSettle } from './sliding-window-counter.model';
import { slidingWindowLogSettle } from './sliding-window-log.model';
import { tokenBucketSettle } from './token-bucket.model';

/** Applies `delta` (actual - estimate, never 0) to one charged rule; see `SettleStep`. */
export function settleRule(
  receipt: RuleReceipt,
  state: RuleState | undefined,
  nowUs: number,
  delta: number,
): SettleStep<RuleState> {
  const { rule } = receipt;
  switch (rule.algorithm) {
    case 'token_bucket':
      return tokenBucketSettle(stateOf(rule.algorithm, state), rule, nowUs, delta);
    case 'leaky_bucket':
      return leakyBucketSettle(stateOf(rule.algorithm, state), rule, nowUs, delta);
    case 'gcra':
      return gcraSettle(stateOf(rule.algorithm, state), rule, nowUs, delta);
    case 'fixed_window':
      return fixedWindowSettle(
        stateOf(rule.algorithm, state),
        rule,
        nowUs,
        receipt.startUs ?? NaN,
        delta,
      );
    case 'sliding_window_counter':
      return slidingWindowCounterSettle(
        stateOf(rule.algorithm, state),
        rule,
        nowUs,
        receipt.startUs ?? NaN,
        delta,
      );
    case 'sliding_window_log': {
      const entry = receipt.entry ?? { atUs: NaN, cost: NaN, seq: NaN };
      return slidingWindowLogSettle(stateOf(rule.algorithm, state), rule, nowUs, entry, delta);
    }
  }
}

/** A rule of the set a settle is given: its name and key, and its current algorithm. */
export interface SettleRuleRef {
  name: string;
  key: string;
  rule: AnyRuleSpec;
  candidate: boolean;
}

/**
 * The settle script's logic: once per record, `actualCost - estimate` goes to every rule of
 * `rules` the record holds a receipt for (same algorithm), each with the parameters it was
 * charged under; every rule then reports a peek. A settled record changes nothing and answers
 * with its first actual cost. `record` undefined: not found (unknown or expired).
 */
export function settleReservationModel(
  read: (key: string) => RuleState | undefined,
  rules: readonly SettleRuleRef[],
  record: ReservationRecord | undefined,
  nowUs: number,
  actualCost: number,
): { result: SettleResult; writes: StateWrite[]; record?: ReservationRecord } {
  if (!record) return { result: { found: false }, writes: [] };
  const actual = record.settled ? (record.actualCost ?? record.estimate) : actualCost;
  const delta = actual - record.estimate;
  const writes: StateWrite[] = [];
  const applied = rules.flatMap((ref) => {
    const receipt = record.receipts[ref.name];
    if (!receipt || receipt.rule.algorithm !== ref.rule.algorithm) return [];
    const step =
      record.settled || delta === 0
        ? { charged: 0 }
        : settleRule(receipt, read(ref.key), nowUs, delta);
    if (step.commit) writes.push({ key: ref.key, ...step.commit });
    return [{ ref, receipt, charged: step.charged, state: step.commit?.state }];
  });
  const settledRules = applied.map(({ ref, receipt, charged, state }): SettledRule => {
    const after = state ?? read(ref.key);
    const peek = evaluateRule(receipt.rule, after, nowUs, 0).decision;
    return { ...peek, name: ref.name, candidate: ref.candidate, charged };
  });
  return {
    result: {
      found: true,
      alreadySettled: record.settled,
      estimate: record.estimate,
      actualCost: actual,
      rules: settledRules,
    },
    writes,
    record: record.settled ? record : { ...record, settled: true, actualCost: actual },
  };
}
