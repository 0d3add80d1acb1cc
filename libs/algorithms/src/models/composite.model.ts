import { combineDecisions, type CompositeDecision, type RuleDecision } from '../decision';
import type { RuleSpec } from '../rule-spec';
import type { PreparedCheck } from '../validate';
import { fixedWindowModel, type FixedWindowState } from './fixed-window.model';
import { gcraModel, type GcraState } from './gcra.model';
import { leakyBucketModel, type LeakyBucketState } from './leaky-bucket.model';
import type { ModelResult } from './model';
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
  | GcraState;

/** Runs the rule's model; a state of another algorithm counts as no state. */
export function evaluateRule(
  rule: RuleSpec,
  state: RuleState | undefined,
  nowUs: number,
  cost: number,
): ModelResult<RuleState> {
  switch (rule.algorithm) {
    case 'token_bucket':
      return tokenBucketModel(
        state?.algorithm === rule.algorithm ? state : undefined,
        rule,
        nowUs,
        cost,
      );
    case 'leaky_bucket':
      return leakyBucketModel(
        state?.algorithm === rule.algorithm ? state : undefined,
        rule,
        nowUs,
        cost,
      );
    case 'fixed_window':
      return fixedWindowModel(
        state?.algorithm === rule.algorithm ? state : undefined,
        rule,
        nowUs,
        cost,
      );
    case 'sliding_window_log':
      return slidingWindowLogModel(
        state?.algorithm === rule.algorithm ? state : undefined,
        rule,
        nowUs,
        cost,
      );
    case 'sliding_window_counter':
      return slidingWindowCounterModel(
        state?.algorithm === rule.algorithm ? state : undefined,
        rule,
        nowUs,
        cost,
      );
    case 'gcra':
      return gcraModel(state?.algorithm === rule.algorithm ? state : undefined, rule, nowUs, cost);
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
 */
export function evaluateChecks(
  read: (key: string) => RuleState | undefined,
  checks: readonly PreparedCheck[],
  nowUs: number,
  dryRun = false,
): { decision: CompositeDecision; writes: StateWrite[] } {
  const evaluated = checks.map((check) => ({
    check,
    result: evaluateRule(check.rule, read(check.key), nowUs, check.cost),
  }));
  const groupPassed = (candidate: boolean): boolean =>
    evaluated.every(
      ({ check, result }) => check.candidate !== candidate || result.decision.allowed,
    );
  const passed = { live: groupPassed(false), candidate: groupPassed(true) };
  const writes: StateWrite[] = [];
  const rules = evaluated.map(({ check, result }): RuleDecision => {
    const groupOk = check.candidate ? passed.candidate : passed.live;
    if (groupOk && result.commit && !dryRun) writes.push({ key: check.key, ...result.commit });
    const decision =
      !groupOk && result.decision.allowed
        ? evaluateRule(check.rule, read(check.key), nowUs, 0).decision
        : result.decision;
    return { ...decision, candidate: check.candidate };
  });
  return { decision: combineDecisions(rules, passed.live, passed.candidate), writes };
}
