import type { UnpublishedTenant } from '@sluice/policy';
import type { LocatedIssue } from './compile-state';
import {
  effectivePolicies,
  type PolicyRow,
  type RuleParams,
  type TenantState,
} from './tenant-state';

/**
 * A sliding window log keeps one entry per unit of cost, and a denied check walks its entries:
 * its work grows with its limit. The cap of a tenant is the platform's setting, lowered by its
 * plan's when that is set.
 */
export function logCap(platformCap: number, planCap: number | null | undefined): number {
  return planCap == null ? platformCap : Math.min(platformCap, planCap);
}

export function logCapMessage(cap: number): string {
  return `must be at most ${cap} units per window for a sliding_window_log (the log keeps an entry per unit): use sliding_window_counter for larger limits (constant memory, an estimate)`;
}

interface LogSpec {
  limit: unknown;
  windowMs: unknown;
}

const logSpecOf = (params: RuleParams): LogSpec => ({
  limit: params['limit'],
  windowMs: params['windowMs'],
});

const sameSpec = (a: LogSpec | undefined, b: LogSpec) =>
  a !== undefined && a.limit === b.limit && a.windowMs === b.windowMs;

/** The sliding logs of the last version, by policy id, rule and override: what may stay. */
function storedLogs(before: UnpublishedTenant | undefined): Map<string, LogSpec> {
  const logs = new Map<string, LogSpec>();
  for (const policy of Object.values(before?.policies ?? {})) {
    const rules = [
      ...policy.rules.map((rule) => ({ ...rule, candidate: false })),
      ...policy.candidateRules.map((rule) => ({ ...rule, candidate: true })),
    ];
    for (const { name, rule, candidate } of rules) {
      if (rule.algorithm !== 'sliding_window_log') continue;
      logs.set(`${policy.id}/${candidate}/${name}`, rule);
    }
    for (const override of policy.overrides) {
      for (const [name, rule] of Object.entries(override.rules)) {
        if (rule.algorithm === 'sliding_window_log') logs.set(`${override.id}/${name}`, rule);
      }
    }
  }
  return logs;
}

/**
 * Sliding-log rules of the tenant's own layer in `state` (its policies, its changes of templates,
 * its overrides) whose limit is above `cap` and that are new or changed since `before`, the last
 * version: a rule stored above the cap keeps working until an edit, import or rollback would
 * leave it there. Templates are the operator's, checked when edited (`templateLogCapIssues`).
 */
export function logCapIssues(
  state: TenantState,
  before: UnpublishedTenant | undefined,
  cap: number,
): LocatedIssue[] {
  const stored = storedLogs(before);
  const issues: LocatedIssue[] = [];
  const above = (spec: LogSpec) => typeof spec.limit === 'number' && spec.limit > cap;
  for (const policy of effectivePolicies(state)) {
    const specs = new Map<string, LogSpec>();
    for (const candidate of [false, true]) {
      policy.rules
        .filter((rule) => rule.candidate === candidate)
        .forEach((rule, ruleIndex) => {
          if (rule.algorithm !== 'sliding_window_log') return;
          const spec = logSpecOf(Object.fromEntries(rule.params.map((p) => [p.name, p.value])));
          if (!candidate) specs.set(rule.name, spec);
          // a template's own values are checked when the operator edits the template
          const tenantSet =
            policy.source === 'tenant' || rule.params.some((p) => p.source === 'tenant');
          if (!tenantSet || !above(spec)) return;
          if (sameSpec(stored.get(`${policy.id}/${candidate}/${rule.name}`), spec)) return;
          issues.push({
            message: logCapMessage(cap),
            path: `policies.${policy.name}.${candidate ? 'candidateRules' : 'rules'}.${rule.name}.limit`,
            policyId: policy.id,
            rule: rule.name,
            candidate,
            ruleIndex,
            rest: ['limit'],
          });
        });
    }
    for (const override of policy.overrides) {
      for (const [name, params] of Object.entries(override.rules)) {
        const base = specs.get(name);
        if (!base) continue;
        const spec = { ...base, ...stripUndefined(logSpecOf(params)) };
        if (!above(spec) || sameSpec(stored.get(`${override.id}/${name}`), spec)) continue;
        issues.push({
          message: logCapMessage(cap),
          path: `policies.${policy.name}.overrides.${override.id}.rules.${name}.limit`,
          policyId: policy.id,
          overrideId: override.id,
          rest: ['rules', name, 'limit'],
        });
      }
    }
  }
  return issues;
}

function stripUndefined(spec: LogSpec): Partial<LogSpec> {
  return Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined));
}

/**
 * A template's sliding-log rules above `cap`, unless `before` (the stored template) had the same
 * limit and window for that rule: issues named as in a `PolicySettingsInput` at `at`.
 */
export function templateLogCapIssues(
  after: PolicyRow,
  before: PolicyRow | undefined,
  cap: number,
  at: string,
): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  for (const candidate of [false, true]) {
    after.rules
      .filter((rule) => rule.candidate === candidate)
      .forEach((rule, i) => {
        if (rule.algorithm !== 'sliding_window_log') return;
        const spec = logSpecOf(rule.params);
        if (typeof spec.limit !== 'number' || spec.limit <= cap) return;
        const old = before?.rules.find(
          (r) =>
            r.name === rule.name && r.candidate === candidate && r.algorithm === rule.algorithm,
        );
        if (old && sameSpec(logSpecOf(old.params), spec)) return;
        issues.push({
          field: `${at}.${candidate ? 'candidateRules' : 'rules'}.${i}.limit`,
          message: logCapMessage(cap),
        });
      });
  }
  return issues;
}
