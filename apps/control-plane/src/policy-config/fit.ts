import type { PolicyRow, RuleParams } from './tenant-state';

/**
 * The part of a tenant's change that a template (`base`) still allows: parameters it opens, in
 * range, of rules that kept their algorithm (`previous`: the template before, if it changed).
 */
export function fitChange(
  rules: Record<string, RuleParams>,
  base: PolicyRow,
  previous: PolicyRow = base,
): Record<string, RuleParams> {
  const kept: Record<string, RuleParams> = {};
  for (const [ruleName, params] of Object.entries(rules)) {
    const rule = base.rules.find((r) => r.name === ruleName && !r.candidate);
    if (!rule || !sameAlgorithm(ruleName, base, previous)) continue;
    const fitting: RuleParams = {};
    for (const [param, value] of Object.entries(params)) {
      const bound = rule.tenantBounds?.[param];
      if (
        bound &&
        typeof value === 'number' &&
        (bound.min === undefined || value >= bound.min) &&
        (bound.max === undefined || value <= bound.max)
      ) {
        fitting[param] = value;
      }
    }
    if (Object.keys(fitting).length > 0) kept[ruleName] = fitting;
  }
  return kept;
}

/** The part of an override that still names rules of `policy` with the same algorithm. */
export function fitOverride(
  rules: Record<string, RuleParams>,
  policy: PolicyRow,
  previous: PolicyRow = policy,
): Record<string, RuleParams> {
  return Object.fromEntries(
    Object.entries(rules).filter(
      ([ruleName]) =>
        policy.rules.some((r) => r.name === ruleName) && sameAlgorithm(ruleName, policy, previous),
    ),
  );
}

function sameAlgorithm(ruleName: string, now: PolicyRow, before: PolicyRow): boolean {
  const algorithm = (policy: PolicyRow) => policy.rules.find((r) => r.name === ruleName)?.algorithm;
  return algorithm(now) !== undefined && algorithm(now) === algorithm(before);
}
