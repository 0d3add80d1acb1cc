import { AlgorithmInputError } from './errors';
import { checkKeyScope, checkRuleName, formatRuleKey, identifierHash } from './rule-key';
import type { RuleSpec } from './rule-spec';
import { ruleKeys } from './script-args';
import { MAX_RULES, validateCost, validateRule, type PreparedCheck } from './validate';

export interface RuleSetRule {
  /** The rule part of its keys (`ruleKey`'s `rule`); unique in the set. */
  name: string;
  rule: RuleSpec;
  /** See `RuleCheck.candidate`. */
  candidate?: boolean;
}

/** The rules of one policy, keyed as `ruleKey({ prefix, scope, identifier, rule: name })`. */
export interface RuleSetSpec {
  prefix: string;
  scope: string;
  rules: readonly RuleSetRule[];
}

export interface PreparedRule {
  readonly name: string;
  /** Validated, defaults filled in (GCRA burst), frozen. */
  readonly rule: RuleSpec;
  readonly candidate: boolean;
}

/** A rule set validated by `prepareRuleSet`, frozen so that it stays valid. */
export interface PreparedRuleSet {
  readonly prefix: string;
  readonly scope: string;
  readonly rules: readonly PreparedRule[];
}

/** Sets made by `prepareRuleSet`: only those may skip validation. */
const preparedSets = new WeakSet<PreparedRuleSet>();

/**
 * Validates a policy's rules once (key parts, 1..MAX_RULES rules, distinct names, every
 * parameter), for `checkPrepared` and `LocalLimiter.checkPrepared` to decide many requests
 * without validating them again. Their keys share one hash tag by construction.
 */
export function prepareRuleSet(spec: RuleSetSpec, field = 'rules'): PreparedRuleSet {
  if (typeof spec !== 'object' || spec === null) {
    throw new AlgorithmInputError(field, 'must be { prefix, scope, rules }');
  }
  checkKeyScope(spec.prefix, spec.scope);
  const input: unknown = spec.rules;
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_RULES) {
    throw new AlgorithmInputError(field, `must be an array of 1 to ${MAX_RULES} rules`);
  }
  const names = new Set<string>();
  const rules = (input as unknown[]).map((entry, i): PreparedRule => {
    const at = `${field}[${i}]`;
    if (typeof entry !== 'object' || entry === null) {
      throw new AlgorithmInputError(at, 'must be { name, rule, candidate? }');
    }
    const { name, rule, candidate } = entry as Record<string, unknown>;
    checkRuleName(name, `${at}.name`);
    const unique = name as string;
    if (names.has(unique)) throw new AlgorithmInputError(`${at}.name`, `repeats ${unique}`);
    names.add(unique);
    if (candidate !== undefined && typeof candidate !== 'boolean') {
      throw new AlgorithmInputError(`${at}.candidate`, 'must be a boolean');
    }
    const valid = validateRule(rule, `${at}.rule`);
    if (valid.algorithm === 'fixed_window' && valid.calendar) Object.freeze(valid.calendar);
    return Object.freeze({
      name: unique,
      rule: Object.freeze(valid),
      candidate: candidate === true,
    });
  });
  const set: PreparedRuleSet = Object.freeze({
    prefix: spec.prefix,
    scope: spec.scope,
    rules: Object.freeze(rules),
  });
  preparedSets.add(set);
  return set;
}

/**
 * One request's checks: validates only what the request brings, the identifier (1..256 bytes,
 * hashed once for every rule) and the cost (one for every rule, or one per rule).
 */
export function ruleSetChecks(
  set: PreparedRuleSet,
  identifier: string | Uint8Array,
  cost: number | readonly number[],
): PreparedCheck[] {
  if (!preparedSets.has(set)) {
    throw new AlgorithmInputError('rules', 'must be a rule set made by prepareRuleSet');
  }
  const idHash = identifierHash(identifier);
  const costs: readonly unknown[] | undefined = Array.isArray(cost) ? cost : undefined;
  if (costs && costs.length !== set.rules.length) {
    throw new AlgorithmInputError('cost', `must give ${set.rules.length} costs, one per rule`);
  }
  const shared = costs ? 0 : validateCost(cost);
  return set.rules.map((prepared, i) => ({
    key: formatRuleKey(set.prefix, set.scope, idHash, prepared.name),
    rule: prepared.rule,
    cost: costs ? validateCost(costs[i], `cost[${i}]`) : shared,
    candidate: prepared.candidate,
  }));
}

/** Every Redis key the set keeps for this identifier (two for a sliding log), e.g. to reset it. */
export function ruleSetKeys(set: PreparedRuleSet, identifier: string | Uint8Array): string[] {
  return ruleSetChecks(set, identifier, 0).flatMap((check) => ruleKeys(check.rule, check.key));
}
