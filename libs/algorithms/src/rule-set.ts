import { AlgorithmInputError } from './errors';
import { validateIdHash, validateNonce } from './ids';
import {
  checkKeyScope,
  checkRuleName,
  formatRuleKey,
  identifierHash,
  ruleStateName,
} from './rule-key';
import type { AnyRuleSpec } from './rule-spec';
import { ruleKeys } from './script-args';
import {
  checkCandidate,
  MAX_RULES,
  validateAnyRule,
  validateCost,
  type PreparedCheck,
} from './validate';

export interface RuleSetRule {
  /** Unique in the set; its keys' rule part is `ruleStateName(name, rule)`. */
  name: string;
  rule: AnyRuleSpec;
  /** See `RuleCheck.candidate`. */
  candidate?: boolean;
}

/**
 * The rules of one policy, keyed as `ruleKey({ prefix, scope, identifier, rule })` with `rule` =
 * `ruleStateName(name, spec)`: a change of a rule's algorithm or window moves it to fresh keys.
 */
export interface RuleSetSpec {
  prefix: string;
  scope: string;
  rules: readonly RuleSetRule[];
}

export interface PreparedRule {
  readonly name: string;
  /** The rule part of its keys: `ruleStateName(name, rule)`. */
  readonly keyName: string;
  /** Validated, defaults filled in (GCRA burst), frozen. */
  readonly rule: AnyRuleSpec;
  readonly candidate: boolean;
}

/** A rule set validated by `prepareRuleSet`, frozen so that it stays valid. */
export interface PreparedRuleSet {
  readonly prefix: string;
  readonly scope: string;
  readonly rules: readonly PreparedRule[];
}

/**
 * Who a request of a rule set is about: the identifier itself (1..256 bytes), or only its
 * `identifierHash`, which is all a reservation or lease id carries.
 */
export type IdentifierRef = string | Uint8Array | { readonly idHash: string };

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
    const valid = validateAnyRule(rule, `${at}.rule`);
    if (valid.algorithm === 'fixed_window' && valid.calendar) Object.freeze(valid.calendar);
    return Object.freeze({
      name: unique,
      keyName: ruleStateName(unique, valid),
      rule: Object.freeze(valid),
      candidate: checkCandidate(valid, candidate, `${at}.candidate`),
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

/** The set, refused unless `prepareRuleSet` made it. */
export function preparedSet(set: PreparedRuleSet): PreparedRuleSet {
  if (!preparedSets.has(set)) {
    throw new AlgorithmInputError('rules', 'must be a rule set made by prepareRuleSet');
  }
  return set;
}

/** The identifier's hash, validated (an `idHash` given directly must look like one). */
export function resolveIdHash(identifier: IdentifierRef): string {
  if (typeof identifier === 'object' && !(identifier instanceof Uint8Array)) {
    return validateIdHash((identifier as { idHash?: unknown } | null)?.idHash, 'identifier.idHash');
  }
  return identifierHash(identifier);
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
  return requestChecks(preparedSet(set), identifierHash(identifier), cost);
}

/** `ruleSetChecks` of a validated set and identifier hash; `lease` goes to concurrency rules. */
export function requestChecks(
  set: PreparedRuleSet,
  idHash: string,
  cost: number | readonly number[],
  lease?: string,
): PreparedCheck[] {
  const costs: readonly unknown[] | undefined = Array.isArray(cost) ? cost : undefined;
  if (costs && costs.length !== set.rules.length) {
    throw new AlgorithmInputError('cost', `must give ${set.rules.length} costs, one per rule`);
  }
  const shared = costs ? 0 : validateCost(cost);
  return set.rules.map((prepared, i) => ({
    key: preparedRuleKey(set, idHash, prepared),
    rule: prepared.rule,
    cost: costs ? validateCost(costs[i], `cost[${i}]`) : shared,
    candidate: prepared.candidate,
    name: prepared.name,
    ...(lease !== undefined && prepared.rule.algorithm === 'concurrency' ? { lease } : {}),
  }));
}

/** The base key of one of the set's rules for an identifier hash. */
export function preparedRuleKey(set: PreparedRuleSet, idHash: string, rule: PreparedRule): string {
  return formatRuleKey(set.prefix, set.scope, idHash, rule.keyName);
}

/** Every Redis key the set keeps for this identifier (two for a sliding log), e.g. to reset it. */
export function ruleSetKeys(set: PreparedRuleSet, identifier: string | Uint8Array): string[] {
  return ruleSetChecks(set, identifier, 0).flatMap((check) => ruleKeys(check.rule, check.key));
}

/** `…{<scope>:<idHash>}:r:<nonce>`: beside the rules' keys, never one of them (no `:` in names). */
export function reservationKey(set: PreparedRuleSet, idHash: string, nonce: string): string {
  return formatRuleKey(set.prefix, set.scope, idHash, `r:${validateNonce(nonce)}`);
}

/** Whether the set takes leases (a concurrency rule). */
export function hasConcurrency(set: PreparedRuleSet): boolean {
  return set.rules.some((rule) => rule.rule.algorithm === 'concurrency');
}
