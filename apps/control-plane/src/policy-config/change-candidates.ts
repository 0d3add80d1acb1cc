import { isDeepStrictEqual } from 'node:util';
import type { FieldIssue } from '../graphql/app-error';
import { changeBoundsIssues } from './compile-state';
import type { ChangeRow, PolicyRow, RuleParams, RuleRow } from './tenant-state';

/**
 * Try in shadow by a tenant on one of its plan's policies: its candidate rules are kept in its
 * change of the template. A tenant may propose only what it could then apply as a change: each
 * candidate replaces a live rule of the template, keeps its algorithm, and differs from the
 * template's values only in parameters the plan opens, within their bounds. Applying them turns
 * each into the change's values of the rule it replaces.
 */

/** The candidate with the template rule's values for every parameter it leaves out. */
export function completeCandidate(base: PolicyRow, candidate: RuleRow): RuleRow {
  const replaced = liveRule(base, candidate.replaces);
  return {
    ...candidate,
    candidate: true,
    tenantBounds: null,
    params: replaced ? { ...replaced.params, ...candidate.params } : candidate.params,
  };
}

/** Issues with the tenant's candidates for `base`, named from `at` (a list of rule inputs). */
export function changeCandidateIssues(
  base: PolicyRow,
  candidates: readonly RuleRow[],
  at: string,
): FieldIssue[] {
  return candidates.flatMap((candidate, i) => issuesOf(base, candidates, i, `${at}.${i}`));
}

/** The candidates that still fit `base` (e.g. once an operator changed the template). */
export function fitChangeCandidates(base: PolicyRow, candidates: readonly RuleRow[]): RuleRow[] {
  return candidates.filter((_, i) => issuesOf(base, candidates, i, '').length === 0);
}

/** The change once its candidates are applied: each gives the rule it replaces its values. */
export function applyChangeCandidates(base: PolicyRow, change: ChangeRow): ChangeRow {
  const rules = { ...change.rules };
  for (const candidate of change.candidates) {
    const replaced = liveRule(base, candidate.replaces);
    if (!replaced) continue;
    const changed = differences(replaced, candidate);
    if (Object.keys(changed).length > 0) rules[replaced.name] = changed;
    else delete rules[replaced.name];
  }
  return { ...change, rules, candidates: [] };
}

function liveRule(base: PolicyRow, name: string | null): RuleRow | undefined {
  return name === null ? undefined : base.rules.find((r) => r.name === name && !r.candidate);
}

/** The candidate's parameters whose values are not the template rule's. */
function differences(rule: RuleRow, candidate: RuleRow): RuleParams {
  return Object.fromEntries(
    Object.entries(candidate.params).filter(
      ([param, value]) => !isDeepStrictEqual(value, rule.params[param]),
    ),
  );
}

function issuesOf(
  base: PolicyRow,
  candidates: readonly RuleRow[],
  index: number,
  at: string,
): FieldIssue[] {
  const candidate = candidates[index];
  if (!candidate) return [];
  const field = (name: string) => (at === '' ? name : `${at}.${name}`);
  const issues: FieldIssue[] = [];
  if (base.rules.some((rule) => rule.name === candidate.name)) {
    issues.push({
      field: field('name'),
      message: `the plan's policy ${base.name} has a rule named ${candidate.name}`,
    });
  } else if (candidates.findIndex((c) => c.name === candidate.name) !== index) {
    issues.push({ field: field('name'), message: 'is a duplicate' });
  }
  if (candidate.replaces === null) {
    issues.push({
      field: field('replaces'),
      message: `must name the rule of ${base.name} it proposes values for: a tenant cannot add rules to a plan's policy`,
    });
    return issues;
  }
  const replaced = liveRule(base, candidate.replaces);
  if (!replaced) {
    issues.push({
      field: field('replaces'),
      message: `the policy has no rule named ${candidate.replaces}`,
    });
    return issues;
  }
  const first = candidates.findIndex((c) => c.replaces === candidate.replaces);
  if (first !== index) {
    issues.push({
      field: field('replaces'),
      message: `candidate ${candidates[first]?.name ?? ''} already proposes values for ${replaced.name}`,
    });
  }
  if (candidate.algorithm !== replaced.algorithm) {
    issues.push({
      field: field('algorithm'),
      message: `must be ${replaced.algorithm}, the algorithm of ${replaced.name} (the plan's)`,
    });
    return issues;
  }
  issues.push(
    ...changeBoundsIssues(
      base,
      { [replaced.name]: differences(replaced, candidate) },
      (_rule, param) => field(param ?? 'name'),
    ),
  );
  return issues;
}
