import { MAX_RULES } from '@sluice/algorithms';
import { isDeepStrictEqual } from 'node:util';
import type { FieldIssue } from '../graphql/app-error';
import { changeBoundsIssues } from './compile-state';
import type { ChangeRow, PolicyRow, RuleParams, RuleRow } from './tenant-state';

/**
 * Try in shadow by a tenant on one of its plan's policies: its candidate rules are kept in its
 * change of the template. A tenant may propose only what it could then apply as a change: each
 * candidate replaces a live rule of the template, keeps its algorithm, and differs from the
 * template's values only in parameters the plan opens, within their bounds. Like a change's
 * values, a candidate is stored as those differences alone (the template's values fill in the
 * rest when it is read), so an operator's edit of a value the tenant did not propose reaches the
 * candidate as it reaches the live rule. Applying candidates makes each one's differences the
 * change's values of the rule it replaces.
 */

/** The candidate as stored: the template rule's algorithm, and the values it proposes anew. */
export function candidatePatch(base: PolicyRow, candidate: RuleRow): RuleRow {
  const replaced = liveRule(base, candidate.replaces);
  return {
    ...candidate,
    candidate: true,
    tenantBounds: null,
    params: replaced ? differences(replaced.params, candidate.params) : candidate.params,
  };
}

/**
 * Issues with the tenant's stored candidates (`candidatePatch`) for `base`, named from `at` (a
 * list of rule inputs).
 */
export function changeCandidateIssues(
  base: PolicyRow,
  candidates: readonly RuleRow[],
  at: string,
): FieldIssue[] {
  const issues = candidates.flatMap((_, i) => issuesOf(base, candidates, i, `${at}.${i}`));
  const room = roomFor(base);
  if (candidates.length > room) {
    issues.push({
      field: at,
      message: `the plan's policy ${base.name} has room for ${room} more rules at most (${MAX_RULES} with its own rules and candidates)`,
    });
  }
  return issues;
}

/**
 * The candidates that still fit `base` (e.g. once an operator changed the template): those of
 * rules that kept their algorithm, whose proposed values the plan still opens, up to the room the
 * template leaves.
 */
export function fitChangeCandidates(base: PolicyRow, candidates: readonly RuleRow[]): RuleRow[] {
  return candidates
    .filter((_, i) => issuesOf(base, candidates, i, '').length === 0)
    .slice(0, roomFor(base));
}

/** The change once its candidates are applied: each one's values become the rule's. */
export function applyChangeCandidates(change: ChangeRow): ChangeRow {
  const rules = { ...change.rules };
  for (const candidate of change.candidates) {
    if (candidate.replaces === null) continue;
    if (Object.keys(candidate.params).length > 0) rules[candidate.replaces] = candidate.params;
    else delete rules[candidate.replaces];
  }
  return { ...change, rules, candidates: [] };
}

function liveRule(base: PolicyRow, name: string | null): RuleRow | undefined {
  return name === null ? undefined : base.rules.find((r) => r.name === name && !r.candidate);
}

/** A composite call decides at most MAX_RULES rules: what the template's own leave. */
function roomFor(base: PolicyRow): number {
  return Math.max(0, MAX_RULES - base.rules.length);
}

/** The values of `proposed` that are not the template rule's. */
function differences(template: RuleParams, proposed: RuleParams): RuleParams {
  return Object.fromEntries(
    Object.entries(proposed).filter(([param, value]) => !isDeepStrictEqual(value, template[param])),
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
      { [replaced.name]: differences(replaced.params, candidate.params) },
      (_rule, param) => field(param ?? 'name'),
    ),
  );
  return issues;
}
