import type { AnyAlgorithm } from '@sluice/algorithms';
import type {
  FailMode,
  OverrideInput,
  OverrideMatch,
  PolicyInput,
  PolicyMode,
  RuleInput,
  TenantConfigInput,
  TenantStatus,
} from '@sluice/policy';

/** A rule's parameters as stored: JSON numbers, and a fixed window's `calendar` object. */
export type RuleParams = Record<string, unknown>;

/** Per parameter, the range a tenant may change it within (template rules only). */
export type TenantBounds = Record<string, { min?: number; max?: number }>;

export interface RuleRow {
  name: string;
  algorithm: AnyAlgorithm;
  params: RuleParams;
  candidate: boolean;
  /** Candidate rules only: the live rule this one proposes new values for; null: a new rule. */
  replaces: string | null;
  /** Plan rules only; null: tenants may not change this rule. */
  tenantBounds: TenantBounds | null;
}

export interface PolicyRow {
  id: string;
  name: string;
  description: string;
  mode: PolicyMode;
  failMode: FailMode;
  redisTimeoutMs: number;
  reservationTtlMs: number | null;
  /** In position order. */
  rules: RuleRow[];
}

/** A tenant's change of a plan policy: changed parameters only, per rule name. */
export interface ChangeRow {
  id: string;
  basePolicyId: string;
  rules: Record<string, RuleParams>;
  /**
   * The tenant's candidate rules for the template (try in shadow): each replaces a live rule of
   * the template, with its algorithm and values of which only those the plan opens differ.
   */
  candidates: RuleRow[];
}

export interface OverrideRow {
  id: string;
  policyId: string;
  match: OverrideMatch;
  /** The identifier (exact) or the prefix without its `*`. */
  identifier: string;
  rules: Record<string, RuleParams>;
  reason: string;
  expiresAt: Date | null;
}

/** Everything a tenant's effective policies are made of, as loaded from PostgreSQL. */
export interface TenantState {
  tenant: { id: string; slug: string; status: TenantStatus };
  /** The templates of the tenant's plan. */
  planPolicies: PolicyRow[];
  /** The tenant's own policies. */
  ownPolicies: PolicyRow[];
  changes: ChangeRow[];
  overrides: OverrideRow[];
}

export type ValueSource = 'plan' | 'tenant';

export interface EffectiveParam {
  name: string;
  value: unknown;
  source: ValueSource;
  /** Plan rules: the range a tenant may change this parameter within; absent: fixed. */
  bounds?: { min?: number; max?: number };
}

export interface EffectiveRule {
  name: string;
  algorithm: AnyAlgorithm;
  /** `tenant`: the tenant's own policy's, or its candidate for a plan policy. */
  source: ValueSource;
  candidate: boolean;
  replaces: string | null;
  params: EffectiveParam[];
}

/** One policy as the tenant gets it, each value saying where it came from. */
export interface EffectivePolicy {
  id: string;
  name: string;
  /** `plan`: a template of the tenant's plan (maybe changed by it); `tenant`: its own. */
  source: ValueSource;
  /** Whether the tenant changed some of the template's parameters. */
  changed: boolean;
  description: string;
  mode: PolicyMode;
  failMode: FailMode;
  redisTimeoutMs: number;
  reservationTtlMs: number | null;
  rules: EffectiveRule[];
  overrides: OverrideRow[];
}

/** Plan templates (with the tenant's changes merged in) first, then the tenant's own policies. */
export function effectivePolicies(state: TenantState): EffectivePolicy[] {
  const changes = new Map(state.changes.map((change) => [change.basePolicyId, change]));
  const overridesOf = (policyId: string) =>
    state.overrides.filter((override) => override.policyId === policyId);
  const fromPlan = state.planPolicies.map((policy): EffectivePolicy => {
    const change = changes.get(policy.id);
    return {
      ...settingsOf(policy),
      source: 'plan',
      changed: change !== undefined && Object.keys(change.rules).length > 0,
      rules: [
        ...policy.rules.map((rule): EffectiveRule => {
          const changed = change?.rules[rule.name] ?? {};
          return {
            name: rule.name,
            algorithm: rule.algorithm,
            source: 'plan',
            candidate: rule.candidate,
            replaces: rule.replaces,
            params: Object.entries(rule.params).map(([name, value]) => {
              const bounds = rule.tenantBounds?.[name];
              return {
                name,
                ...(name in changed
                  ? { value: changed[name], source: 'tenant' as const }
                  : { value, source: 'plan' as const }),
                ...(bounds && { bounds }),
              };
            }),
          };
        }),
        // the tenant's candidates: the rule they replace with the values they propose
        ...(change?.candidates ?? []).map((candidate): EffectiveRule => {
          const replaced = policy.rules.find((r) => r.name === candidate.replaces);
          const values = { ...replaced?.params, ...candidate.params };
          return {
            ...tenantRule(candidate),
            params: Object.entries(values).map(([name, value]) => {
              const bounds = replaced?.tenantBounds?.[name];
              return {
                name,
                value,
                source: name in candidate.params ? ('tenant' as const) : ('plan' as const),
                ...(bounds && { bounds }),
              };
            }),
          };
        }),
      ],
      overrides: overridesOf(policy.id),
    };
  });
  const own = state.ownPolicies.map((policy): EffectivePolicy => ({
    ...settingsOf(policy),
    source: 'tenant',
    changed: false,
    rules: policy.rules.map(tenantRule),
    overrides: overridesOf(policy.id),
  }));
  return [...fromPlan, ...own];
}

function tenantRule(rule: RuleRow): EffectiveRule {
  return {
    name: rule.name,
    algorithm: rule.algorithm,
    source: 'tenant',
    candidate: rule.candidate,
    replaces: rule.replaces,
    params: Object.entries(rule.params).map(([name, value]) => ({
      name,
      value,
      source: 'tenant' as const,
    })),
  };
}

function settingsOf(policy: PolicyRow) {
  const { rules: _rules, ...settings } = policy;
  return settings;
}

export function toRuleInput(rule: { name: string; algorithm: AnyAlgorithm; params: RuleParams }) {
  return { ...rule.params, name: rule.name, algorithm: rule.algorithm } as RuleInput;
}

/** An override as the policy lib takes it (a prefix written with its `*`). */
export function toOverrideInput(override: OverrideRow): OverrideInput {
  return {
    id: override.id,
    match: override.match,
    identifier: override.identifier,
    rules: override.rules as OverrideInput['rules'],
    ...(override.expiresAt && { expiresAt: override.expiresAt.getTime() }),
    reason: override.reason,
  };
}

/** One effective policy as the policy lib's input. */
export function toPolicyInput(policy: EffectivePolicy): PolicyInput {
  const live = policy.rules.filter((rule) => !rule.candidate);
  const candidates = policy.rules.filter((rule) => rule.candidate);
  const asInput = (rule: EffectiveRule) =>
    toRuleInput({
      name: rule.name,
      algorithm: rule.algorithm,
      params: Object.fromEntries(rule.params.map((param) => [param.name, param.value])),
    });
  return {
    id: policy.id,
    name: policy.name,
    description: policy.description,
    mode: policy.mode,
    failMode: policy.failMode,
    redisTimeoutMs: policy.redisTimeoutMs,
    rules: live.map(asInput),
    candidateRules: candidates.map(asInput),
    overrides: policy.overrides.map(toOverrideInput),
    ...(policy.reservationTtlMs !== null && { reservations: { ttlMs: policy.reservationTtlMs } }),
  };
}

/** What `compileTenant` validates and compiles: the tenant's effective policies. */
export function toConfigInput(state: TenantState): TenantConfigInput {
  return {
    tenantId: state.tenant.id,
    slug: state.tenant.slug,
    status: state.tenant.status,
    policies: effectivePolicies(state).map(toPolicyInput),
  };
}
