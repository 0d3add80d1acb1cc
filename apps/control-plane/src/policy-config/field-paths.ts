import type { FieldIssue } from '../graphql/app-error';
import { candidateLinkIssues } from './candidates';
import { compileState, type LocatedIssue } from './compile-state';
import type { OverrideRow, PolicyRow, RuleParams } from './tenant-state';

/** The API's names for the policy lib's policy-level fields. */
const SETTING_FIELDS: Record<string, string> = { reservations: 'reservationTtlMs' };

const join = (...parts: (string | number)[]) => parts.filter((p) => p !== '').join('.');

/**
 * Where an issue about `policy` lies in an input shaped like `PolicySettingsInput` at `at`
 * (`rules` and `candidateRules` in the order of the policy's rows); undefined when it is about
 * something else.
 */
export function policyField(
  issue: LocatedIssue,
  policy: PolicyRow,
  at: string,
): string | undefined {
  if (issue.policyId !== policy.id || issue.overrideId !== undefined) return undefined;
  if (issue.ruleIndex !== undefined) {
    return join(at, issue.candidate ? 'candidateRules' : 'rules', issue.ruleIndex, ...issue.rest);
  }
  const [first = '', ...rest] = issue.rest;
  const field = SETTING_FIELDS[String(first)];
  return field ? join(at, field) : join(at, first, ...rest);
}

/**
 * Where an issue about `override` lies in an input shaped like `OverrideInput` at `at`: its
 * `rules` as a list of `{ name, ...params }` in `ruleOrder`.
 */
export function overrideField(
  issue: LocatedIssue,
  override: OverrideRow,
  ruleOrder: readonly string[],
  at: string,
): string | undefined {
  if (issue.overrideId !== override.id) return undefined;
  const [first, ruleName, ...rest] = issue.rest;
  if (first === 'rules' && typeof ruleName === 'string') {
    const index = ruleOrder.indexOf(ruleName);
    return index === -1 ? join(at, 'rules') : join(at, 'rules', index, ...rest);
  }
  return join(at, ...issue.rest);
}

/**
 * Where an issue about a template's rules, as changed by a tenant, lies in a list of
 * `{ name, ...params }` at `at`.
 */
export function changeField(
  issue: LocatedIssue,
  basePolicyId: string,
  ruleOrder: readonly string[],
  at: string,
): string | undefined {
  if (issue.policyId !== basePolicyId || issue.rule === undefined) return undefined;
  const index = ruleOrder.indexOf(issue.rule);
  return index === -1 ? undefined : join(at, index, ...issue.rest);
}

/**
 * Validates one policy on its own (as a tenant's only policy) and its candidates' links, issues
 * named from `at`.
 */
export function policyIssues(policy: PolicyRow, at: string): FieldIssue[] {
  const compiled = compileState({
    tenant: { id: 'tnt_validation', slug: 'validation', status: 'active' },
    planPolicies: [],
    ownPolicies: [policy],
    changes: [],
    overrides: [],
  });
  const links = candidateLinkIssues(policy, at);
  if (!('issues' in compiled)) return links;
  return [
    ...compiled.issues.map((issue) => ({
      field: policyField(issue, policy, at) ?? at,
      message: issue.message,
    })),
    ...links,
  ];
}

/** Template bounds: numeric parameters of the rule, `min` at most `max`. */
export function boundsIssues(policy: PolicyRow, at: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const candidate of [false, true]) {
    policy.rules
      .filter((rule) => rule.candidate === candidate)
      .forEach((rule, i) => {
        Object.entries(rule.tenantBounds ?? {}).forEach(([param, bound], j) => {
          const field = join(at, candidate ? 'candidateRules' : 'rules', i, 'tenantBounds', j);
          if (candidate) {
            issues.push({ field, message: 'candidate rules cannot be changed by tenants' });
          } else if (typeof (rule.params as RuleParams)[param] !== 'number') {
            issues.push({
              field: join(field, 'param'),
              message: `${rule.algorithm} rule ${rule.name} has no numeric parameter ${param}`,
            });
          } else if (bound.min !== undefined && bound.max !== undefined && bound.min > bound.max) {
            issues.push({ field: join(field, 'min'), message: 'must not exceed max' });
          }
        });
      });
  }
  return issues;
}
