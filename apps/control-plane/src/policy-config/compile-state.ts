import { compileTenant, PolicyValidationError, type UnpublishedTenant } from '@sluice/policy';
import { isDeepStrictEqual } from 'node:util';
import {
  effectivePolicies,
  toPolicyInput,
  type PolicyRow,
  type RuleParams,
  type TenantState,
} from './tenant-state';

export type PathSegment = string | number;

/** A complaint of the policy lib, traced back to what it is about. */
export interface LocatedIssue {
  message: string;
  /** The lib's own path, e.g. `policies[2].rules[0].capacity`. */
  path: string;
  policyId?: string;
  /** The rule (live or candidate) the issue is in, by name. */
  rule?: string;
  candidate?: boolean;
  /** Its position among the policy's live (or candidate) rules. */
  ruleIndex?: number;
  overrideId?: string;
  /** What follows, under the rule, override or policy: e.g. `['capacity']`. */
  rest: PathSegment[];
}

/** `policies[2].rules[0].capacity` → `['policies', 2, 'rules', 0, 'capacity']` (formatPath's inverse). */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  const token = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([A-Za-z_$][\w$-]*)/gy;
  let match: RegExpExecArray | null;
  while ((match = token.exec(path)) !== null) {
    if (match[1] !== undefined) segments.push(Number(match[1]));
    else if (match[2] !== undefined) segments.push(JSON.parse(match[2]) as string);
    else if (match[3] !== undefined) segments.push(match[3]);
  }
  return segments;
}

/**
 * Validates and compiles the tenant's effective policies with the policy lib (the rules live in
 * one place), reporting each issue with the policy, rule or override it is about.
 */
export function compileState(
  state: TenantState,
): { tenant: UnpublishedTenant } | { issues: LocatedIssue[] } {
  const policies = effectivePolicies(state);
  try {
    return {
      tenant: compileTenant({
        tenantId: state.tenant.id,
        slug: state.tenant.slug,
        status: state.tenant.status,
        policies: policies.map(toPolicyInput),
      }),
    };
  } catch (error) {
    if (!(error instanceof PolicyValidationError)) throw error;
    return {
      issues: error.issues.map((issue): LocatedIssue => {
        const segments = parsePath(issue.path);
        const located: LocatedIssue = { message: issue.message, path: issue.path, rest: [] };
        const policy =
          segments[0] === 'policies' && typeof segments[1] === 'number'
            ? policies[segments[1]]
            : undefined;
        if (!policy) return { ...located, rest: segments };
        const [, , section, index] = segments;
        const live = policy.rules.filter((rule) => !rule.candidate);
        const candidates = policy.rules.filter((rule) => rule.candidate);
        if (section === 'rules' && typeof index === 'number' && live[index]) {
          return {
            ...located,
            policyId: policy.id,
            rule: live[index].name,
            candidate: false,
            ruleIndex: index,
            rest: segments.slice(4),
          };
        }
        if (section === 'candidateRules' && typeof index === 'number' && candidates[index]) {
          return {
            ...located,
            policyId: policy.id,
            rule: candidates[index].name,
            candidate: true,
            ruleIndex: index,
            rest: segments.slice(4),
          };
        }
        if (section === 'overrides' && typeof index === 'number' && policy.overrides[index]) {
          return {
            ...located,
            policyId: policy.id,
            overrideId: policy.overrides[index].id,
            rest: segments.slice(4),
          };
        }
        return { ...located, policyId: policy.id, rest: segments.slice(2) };
      }),
    };
  }
}

/**
 * A tenant's change of a template parameter must be one the plan opened (`tenantBounds`) and lie
 * within its range; `at` names the rules' field, e.g. `input.rules`.
 */
export function checkChangeBounds(
  state: TenantState,
  basePolicyId: string,
  rules: Record<string, RuleParams>,
  fieldOf: (rule: string, param?: string) => string,
): { field: string; message: string }[] {
  const base = state.planPolicies.find((policy) => policy.id === basePolicyId);
  if (!base) return [{ field: fieldOf(''), message: 'is not a policy of the plan' }];
  return changeBoundsIssues(base, rules, fieldOf);
}

/** `checkChangeBounds` against the template `base` itself. */
export function changeBoundsIssues(
  base: PolicyRow,
  rules: Record<string, RuleParams>,
  fieldOf: (rule: string, param?: string) => string,
): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  for (const [ruleName, params] of Object.entries(rules)) {
    const rule = base.rules.find((r) => r.name === ruleName);
    if (!rule) {
      issues.push({
        field: fieldOf(ruleName),
        message: `the policy has no rule named ${ruleName}`,
      });
      continue;
    }
    for (const [param, value] of Object.entries(params)) {
      const bounds = rule.tenantBounds?.[param];
      if (!bounds) {
        issues.push({
          field: fieldOf(ruleName, param),
          message: `the plan does not let tenants change ${param} of rule ${ruleName}`,
        });
      } else if (typeof value !== 'number' || !Number.isFinite(value)) {
        issues.push({ field: fieldOf(ruleName, param), message: 'must be a number' });
      } else if (bounds.min !== undefined && value < bounds.min) {
        issues.push({
          field: fieldOf(ruleName, param),
          message: `must be at least ${bounds.min} (the plan's bound)`,
        });
      } else if (bounds.max !== undefined && value > bounds.max) {
        issues.push({
          field: fieldOf(ruleName, param),
          message: `must be at most ${bounds.max} (the plan's bound)`,
        });
      }
    }
  }
  return issues;
}

/**
 * The overrides of plan templates in `after` that are new or changed since `before`, checked
 * against the plan's bounds as the tenant's own change of the template would be (an import or
 * rollback by a tenant admin); `fieldOf` names a parameter of the override at `index`.
 */
export function overrideBoundsIssues(
  before: TenantState,
  after: TenantState,
  fieldOf: (index: number, rule: string, param?: string) => string,
): { field: string; message: string }[] {
  const templates = new Set(after.planPolicies.map((policy) => policy.id));
  return after.overrides.flatMap((override, index) => {
    if (!templates.has(override.policyId)) return [];
    const old = before.overrides.find((o) => o.id === override.id);
    if (old && isDeepStrictEqual(old.rules, override.rules)) return [];
    return checkChangeBounds(after, override.policyId, override.rules, (rule, param) =>
      fieldOf(index, rule, param),
    );
  });
}
