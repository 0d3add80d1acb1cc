import { combineDecisions, usToMs, type CompositeDecision, type RuleDecision } from '../decision';
import type { AnyRuleSpec } from '../rule-spec';
import type { PreparedCheck } from '../validate';
import { concurrencyModel, type ConcurrencyState } from './concurrency.model';
import { fixedWindowModel, type FixedWindowState } from './fixed-window.model';
import { gcraModel, type GcraState } from './gcra.model';
import { leakyBucketModel, type LeakyBucketState } from './leaky-bucket.model';
import type { ModelResult } from './model';
import { ruleReceipt, type ReservationRecord, type RuleReceipt } from './receipt.model';
import {
  slidingWindowCounterModel,
  type SlidingWindowCounterState,
} from './sliding-window-counter.model';
import { slidingWindowLogModel, type SlidingWindowLogState } from './sliding-window-log.model';
import { tokenBucketModel, type TokenBucketState } from './token-bucket.model';

export type RuleState =
  | TokenBucketState
  | LeakyBucketState
  | FixedWindowState
  | SlidingWindowLogState
  | SlidingWindowCounterState
  | GcraState
  | ConcurrencyState;

/** The stored state when it belongs to the rule's algorithm; another algorithm's is no state. */
export function stateOf<A extends RuleState['algorithm']>(
  algorithm: A,
  state: RuleState | undefined,
): Extract<RuleState, { algorithm: A }> | undefined {
  return state?.algorithm === algorithm
    ? (state as Extract<RuleState, { algorithm: A }>)
    : undefined;
}

/** Runs the rule's model; `lease` is the nonce a concurrency rule takes (cost > 0). */
export function evaluateRule(
  rule: AnyRuleSpec,
  state: RuleState | undefined,
  nowUs: number,
  cost: number,
  lease?: string,
): ModelResult<RuleState> {
  switch (rule.algorithm) {
    case 'token_bucket':
      return tokenBucketModel(stateOf(rule.algorithm, state), rule, nowUs, cost);
    case 'leaky_bucket':
      return leakyBucketModel(stateOf(rule.algorithm, state), rule, nowUs, cost);
    case 'fixed_window':
      return fixedWindowModel(stateOf(rule.algorithm, state), rule, nowUs, cost);
    case 'sliding_window_log':
      return slidingWindowLogModel(stateOf(rule.algorithm, state), rule, nowUs, cost);
    case 'sliding_window_counter':
      return slidingWindowCounterModel(stateOf(rule.algorithm, state), rule, nowUs, cost);
    case 'gcra':
      return gcraModel(stateOf(rule.algorithm, state), rule, nowUs, cost);
    case 'concurrency':
      return concurrencyModel(stateOf(rule.algorithm, state), rule, nowUs, cost, lease);
  }
}

export interface StateWrite {
  key: string;
  state: RuleState;
  ttlMs: number;
}

/**
 * The composite's all-or-nothing logic: live rules and candidate rules form two groups; a group
 * commits only when all its rules pass. A rule that passed in a denied group reports the figures
 * of a peek (cost 0), since nothing was charged. A dry run decides the same and writes nothing.
 * With `reserve`, a live group committing with a cost > 0 also yields the reservation record:
 * the estimate (the checks' one cost) and a receipt per committed rule that counts cost.
 */
export function evaluateChecks(
  read: (key: string) => RuleState | undefined,
  checks: readonly PreparedCheck[],
  nowUs: number,
  dryRun = false,
  reserve = false,
): { decision: CompositeDecision; writes: StateWrite[]; reservation?: ReservationRecord } {
  const evaluated = checks.map((check) => ({
    check,
    result: evaluateRule(check.rule, read(check.key), nowUs, check.cost, check.lease),
  }));
  const groupPassed = (candidate: boolean): boolean =>
    evaluated.every(
      ({ check, result }) => check.candidate !== candidate || result.decision.allowed,
    );
  const passed = { live: groupPassed(false), candidate: groupPassed(true) };
  const writes: StateWrite[] = [];
  const receipts: Record<string, RuleReceipt> = {};
  let leaseUs: number | undefined;
  const rules = evaluated.map(({ check, result }): RuleDecision => {
    const groupOk = check.candidate ? passed.candidate : passed.live;
    if (groupOk && result.commit && !dryRun) {
      writes.push({ key: check.key, ...result.commit });
      if (check.rule.algorithm === 'concurrency') {
        if (!check.candidate) {
          const expiresAtUs = nowUs + check.rule.leaseTtlMs * 1000;
          leaseUs = Math.min(leaseUs ?? expiresAtUs, expiresAtUs);
        }
      } else {
        receipts[check.name ?? ''] = ruleReceipt(check.rule, result.commit.state, nowUs);
      }
    }
    const decision =
      !groupOk && result.decision.allowed
        ? evaluateRule(check.rule, read(check.key), nowUs, 0).decision
        : result.decision;
    return { ...decision, candidate: check.candidate };
  });
  const decision = combineDecisions(rules, passed.live, passed.candidate);
  const lease = checks.find((check) => check.lease !== undefined)?.lease;
  if (leaseUs !== undefined && lease !== undefined) {
    decision.lease = { nonce: lease, expiresAt: usToMs(leaseUs) };
  }
  const estimate = checks[0]?.cost ?? 0;
  if (!reserve || !passed.live || dryRun || estimate === 0) return { decision, writes };
  return { decision, writes, reservation: { estimate, settled: false, receipts } };
}
