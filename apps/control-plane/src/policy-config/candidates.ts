import type { FieldIssue } from '../graphql/app-error';
import type { PolicyRow, RuleRow } from './tenant-state';

/**
 * Try in shadow: a policy's candidate rules are decided beside its live rules on their own
 * counters and never deny. A candidate that `replaces` a live rule proposes new values for it;
 * one that does not proposes a new rule. Applying them makes the proposal live in one step.
 */

const at = (base: string, index: number) => `${base}.candidateRules.${index}.replaces`;

/**
 * A candidate's `replaces` names a live rule of the same policy, and no two candidates propose
 * for the same one (applying both would leave one's values unused).
 */
export function candidateLinkIssues(policy: PolicyRow, base: string): FieldIssue[] {
  const live = new Set(policy.rules.filter((rule) => !rule.candidate).map((rule) => rule.name));
  const taken = new Map<string, string>();
  const issues: FieldIssue[] = [];
  policy.rules
    .filter((rule) => rule.candidate)
    .forEach((rule, i) => {
      if (rule.replaces === null) return;
      if (!live.has(rule.replaces)) {
        issues.push({
          field: at(base, i),
          message: `the policy has no rule named ${rule.replaces}`,
        });
        return;
      }
      const other = taken.get(rule.replaces);
      if (other !== undefined) {
        issues.push({
          field: at(base, i),
          message: `candidate ${other} already proposes values for ${rule.replaces}`,
        });
      }
      taken.set(rule.replaces, rule.name);
    });
  return issues;
}

/** The policy with `candidates` (validated by the caller) in place of its candidate rules. */
export function withCandidates(policy: PolicyRow, candidates: readonly RuleRow[]): PolicyRow {
  return {
    ...policy,
    rules: [
      ...policy.rules.filter((rule) => !rule.candidate),
      ...candidates.map((rule) => ({ ...rule, candidate: true, tenantBounds: null })),
    ],
  };
}

/**
 * The policy once its candidates are applied: a candidate that replaces a live rule gives that
 * rule its algorithm and values under the live rule's name (so a change of limits keeps the
 * counters, as any edit does); one that does not is added after the live rules. A template
 * rule keeps the tenants' bounds of the parameters it still has when its algorithm stays.
 */
export function applyCandidates(policy: PolicyRow): PolicyRow {
  const candidates = policy.rules.filter((rule) => rule.candidate);
  const proposalFor = new Map(candidates.flatMap((c) => (c.replaces ? [[c.replaces, c]] : [])));
  const live = policy.rules
    .filter((rule) => !rule.candidate)
    .map((rule): RuleRow => {
      const proposal = proposalFor.get(rule.name);
      if (!proposal) return rule;
      return {
        name: rule.name,
        algorithm: proposal.algorithm,
        params: proposal.params,
        candidate: false,
        replaces: null,
        tenantBounds: keptBounds(rule, proposal),
      };
    });
  const added = candidates
    .filter((c) => c.replaces === null)
    .map((c): RuleRow => ({ ...c, candidate: false, replaces: null, tenantBounds: null }));
  return { ...policy, rules: [...live, ...added] };
}

function keptBounds(rule: RuleRow, proposal: RuleRow): RuleRow['tenantBounds'] {
  if (!rule.tenantBounds || rule.algorithm !== proposal.algorithm) return null;
  const kept = Object.entries(rule.tenantBounds).filter(
    ([param]) => typeof proposal.params[param] === 'number',
  );
  return kept.length > 0 ? Object.fromEntries(kept) : null;
}
