import type { CompositeDecision, Decision, RuleDecision } from './decision';
import { AlgorithmInputError } from './errors';
import { evaluateChecks, type RuleState } from './models/composite.model';
import type { RuleCheck, RuleSpec } from './rule-spec';
import { ruleSetChecks, type PreparedRuleSet } from './rule-set';
import { prepareCheck, prepareChecks, toMicros, type PreparedCheck } from './validate';

export interface LocalLimiterOptions {
  /** Most keys kept; beyond it the least recently written key is forgotten (default 100,000). */
  maxKeys?: number;
  /** Ms epoch clock (default Date.now). */
  clock?: () => number;
}

/**
 * In-process limiter on the reference models (e.g. the data plane's local fail mode): the same
 * decisions as the Redis scripts, for one process's traffic only. States expire like the keys.
 */
export class LocalLimiter {
  private readonly states = new Map<string, { state: RuleState; expiresAtUs: number }>();
  private readonly maxKeys: number;
  private readonly clock: () => number;

  constructor(options: LocalLimiterOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000;
    if (!Number.isInteger(this.maxKeys) || this.maxKeys < 1) {
      throw new AlgorithmInputError('maxKeys', `must be an integer >= 1, got ${this.maxKeys}`);
    }
    this.clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.states.size;
  }

  check(key: string, rule: RuleSpec, options: { cost?: number; now?: number } = {}): Decision {
    const nowUs = this.nowUs(options.now);
    const [{ candidate: _candidate, ...decision }] = this.apply(
      [prepareCheck(key, rule, options.cost)],
      nowUs,
      false,
    ).rules as [RuleDecision];
    return decision;
  }

  checkRules(
    checks: readonly RuleCheck[],
    options: { now?: number; dryRun?: boolean } = {},
  ): CompositeDecision {
    const prepared = prepareChecks(checks);
    return this.apply(prepared, this.nowUs(options.now), options.dryRun ?? false);
  }

  /** `checkRules` for a set made by `prepareRuleSet`: see `checkPrepared`. */
  checkPrepared(
    set: PreparedRuleSet,
    identifier: string | Uint8Array,
    cost: number | readonly number[],
    options: { now?: number; dryRun?: boolean } = {},
  ): CompositeDecision {
    const checks = ruleSetChecks(set, identifier, cost);
    return this.apply(checks, this.nowUs(options.now), options.dryRun ?? false);
  }

  private nowUs(now: number | undefined): number {
    return toMicros(now ?? this.clock());
  }

  private apply(checks: PreparedCheck[], nowUs: number, dryRun: boolean): CompositeDecision {
    const { decision, writes } = evaluateChecks(
      (key) => this.read(key, nowUs),
      checks,
      nowUs,
      dryRun,
    );
    for (const { key, state, ttlMs } of writes) {
      // re-inserting moves the key to the end of the Map's order, so eviction takes the oldest
      this.states.delete(key);
      this.states.set(key, { state, expiresAtUs: nowUs + ttlMs * 1000 });
    }
    for (const key of this.states.keys()) {
      if (this.states.size <= this.maxKeys) break;
      this.states.delete(key);
    }
    return decision;
  }

  private read(key: string, nowUs: number): RuleState | undefined {
    const entry = this.states.get(key);
    if (entry && entry.expiresAtUs <= nowUs) {
      this.states.delete(key);
      return undefined;
    }
    return entry?.state;
  }
}
