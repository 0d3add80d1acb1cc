import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { AnyAlgorithm } from '@sluice/algorithms';
import type { FailMode, OverrideMatch, PolicyMode } from '@sluice/policy';
import type {
  EffectivePolicy as EffectivePolicyData,
  OverrideRow,
  PolicyRow,
} from '../../policy-config/tenant-state';
import {
  AlgorithmEnum,
  CalendarWindow,
  FailModeEnum,
  OverrideMatchEnum,
  paramsModel,
  PolicyModeEnum,
  Rule,
  RuleChange,
  RuleChangeInput,
  RuleInput,
  ruleModel,
  toRuleRow,
} from './rule.model';
import { COUNTERS_RESET, CounterReset } from './counter-reset.model';

@InputType({ description: 'A whole policy: its settings and rules (an update replaces them all).' })
export class PolicySettingsInput {
  @Field({ description: 'Unique among the policies a tenant sees; 1 to 63 of a-z 0-9 - _.' })
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => PolicyModeEnum, { nullable: true, description: 'Default ENFORCE.' })
  mode?: PolicyMode | null;

  @Field(() => FailModeEnum, { nullable: true, description: 'Default OPEN.' })
  failMode?: FailMode | null;

  @Field(() => Int, { nullable: true, description: 'Redis timeout of a check, 1..1000 ms (50).' })
  redisTimeoutMs?: number | null;

  @Field(() => Int, {
    nullable: true,
    description:
      'Reservations: checks with a cost return a reservationId to settle; an unsettled one expires after this (1 s..24 h). Null: none.',
  })
  reservationTtlMs?: number | null;

  @Field(() => [RuleInput], { description: 'The live rules, all-or-nothing (1 to 32).' })
  rules!: RuleInput[];

  @Field(() => [RuleInput], {
    nullable: true,
    description: 'Candidate rules, decided in shadow on their own counters (never deny).',
  })
  candidateRules?: RuleInput[] | null;
}

/** The settings every policy has, stored or effective. */
@ObjectType({ isAbstract: true })
abstract class PolicyBase {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  description!: string;

  @Field(() => PolicyModeEnum)
  mode!: PolicyMode;

  @Field(() => FailModeEnum)
  failMode!: FailMode;

  @Field(() => Int)
  redisTimeoutMs!: number;

  @Field(() => Int, { nullable: true })
  reservationTtlMs!: number | null;
}

@ObjectType()
export class Policy extends PolicyBase {
  @Field(() => [Rule], { description: 'Live rules, then candidate rules.' })
  rules!: Rule[];

  @Field(() => ID, { nullable: true, description: 'Set for a plan template.' })
  planId!: string | null;

  @Field(() => ID, { nullable: true, description: "Set for a tenant's own policy." })
  tenantId!: string | null;
}

export function policyModel(
  row: PolicyRow,
  owner: { planId?: string | null; tenantId?: string | null },
): Policy {
  const { rules, ...settings } = row;
  return {
    ...settings,
    rules: rules.map(ruleModel),
    planId: owner.planId ?? null,
    tenantId: owner.tenantId ?? null,
  };
}

export const ValueSourceEnum = { PLAN: 'plan', TENANT: 'tenant' } as const;
registerEnumType(ValueSourceEnum, {
  name: 'ValueSource',
  description: "PLAN: the plan's template; TENANT: the tenant's own policy or change.",
});

@ObjectType()
export class EffectiveParam {
  @Field()
  name!: string;

  @Field(() => Float, { nullable: true, description: 'The value (null for a calendar).' })
  value!: number | null;

  @Field(() => CalendarWindow, { nullable: true })
  calendar!: CalendarWindow | null;

  @Field(() => ValueSourceEnum)
  source!: 'plan' | 'tenant';

  @Field({
    description:
      'Whether the tenant may change it: its own policies freely, templates within min and max.',
  })
  changeable!: boolean;

  @Field(() => Float, { nullable: true })
  min!: number | null;

  @Field(() => Float, { nullable: true })
  max!: number | null;
}

@ObjectType()
export class EffectiveRule {
  @Field()
  name!: string;

  @Field(() => AlgorithmEnum)
  algorithm!: AnyAlgorithm;

  @Field(() => ValueSourceEnum, {
    description:
      "PLAN: a rule (or candidate) of the plan's template, the operators'; TENANT: a rule of the tenant's own policy, or the tenant's candidate for a plan policy (tryPlanPolicyCandidates).",
  })
  source!: 'plan' | 'tenant';

  @Field()
  candidate!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'Candidate rules: the live rule this one proposes new values for (null: a new rule).',
  })
  replaces!: string | null;

  @Field(() => [EffectiveParam])
  params!: EffectiveParam[];
}

@ObjectType()
export class Override {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  policyId!: string;

  @Field()
  policy!: string;

  @Field(() => OverrideMatchEnum)
  match!: OverrideMatch;

  @Field({ description: 'The identifier, or the prefix followed by * for PREFIX.' })
  identifier!: string;

  @Field(() => [RuleChange])
  rules!: RuleChange[];

  @Field()
  reason!: string;

  @Field(() => Date, { nullable: true })
  expiresAt!: Date | null;

  @Field({ description: 'Past its expiresAt: kept, but no check applies it.' })
  expired!: boolean;

  @Field(() => ValueSourceEnum, { description: 'Overrides are always the tenant’s.' })
  source!: 'tenant';
}

export function overrideModel(row: OverrideRow, policy: string, now = Date.now()): Override {
  return {
    id: row.id,
    policyId: row.policyId,
    policy,
    match: row.match,
    identifier: row.match === 'prefix' ? `${row.identifier}*` : row.identifier,
    rules: Object.entries(row.rules).map(([name, params]) => ({ name, ...paramsModel(params) })),
    reason: row.reason,
    expiresAt: row.expiresAt,
    expired: row.expiresAt !== null && +row.expiresAt <= now,
    source: 'tenant',
  };
}

@ObjectType({
  description: 'A policy as the tenant gets it, each value saying where it came from.',
})
export class EffectivePolicy extends PolicyBase {
  @Field(() => ValueSourceEnum)
  source!: 'plan' | 'tenant';

  @Field({ description: "Whether the tenant changed some of the template's parameters." })
  changed!: boolean;

  @Field(() => [EffectiveRule])
  rules!: EffectiveRule[];

  @Field(() => [Override])
  overrides!: Override[];
}

export function effectivePolicyModel(policy: EffectivePolicyData): EffectivePolicy {
  return {
    ...policy,
    rules: policy.rules.map((rule) => ({
      name: rule.name,
      algorithm: rule.algorithm,
      source: rule.source,
      candidate: rule.candidate,
      replaces: rule.replaces,
      params: rule.params.map((param) => ({
        name: param.name,
        value: typeof param.value === 'number' ? param.value : null,
        calendar: typeof param.value === 'object' ? (param.value as CalendarWindow) : null,
        source: param.source,
        changeable: policy.source === 'tenant' || param.bounds !== undefined,
        min: param.bounds?.min ?? null,
        max: param.bounds?.max ?? null,
      })),
    })),
    overrides: policy.overrides.map((override) => overrideModel(override, policy.name)),
  };
}

/** The rows of a policy given as `PolicySettingsInput` (bounds kept for plan templates only). */
export function policyRowFromInput(
  input: PolicySettingsInput,
  id: string,
  template: boolean,
): PolicyRow {
  return {
    id,
    name: input.name,
    description: input.description ?? '',
    mode: input.mode ?? 'enforce',
    failMode: input.failMode ?? 'open',
    redisTimeoutMs: input.redisTimeoutMs ?? 50,
    reservationTtlMs: input.reservationTtlMs ?? null,
    rules: [
      ...input.rules.map((rule) => toRuleRow(rule, false, template)),
      ...(input.candidateRules ?? []).map((rule) => toRuleRow(rule, true, template)),
    ],
  };
}

@InputType()
export class ChangePlanPolicyInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: "The name of one of the tenant's plan's policies." })
  policy!: string;

  @Field(() => [RuleChangeInput], {
    description:
      "The tenant's values for parameters the plan lets it change (within the plan's bounds); they replace its earlier change of this policy. Empty: back to the plan's values.",
  })
  rules!: RuleChangeInput[];
}

@ObjectType()
export class PolicyPayload {
  @Field(() => Policy, { nullable: true, description: 'Null once deleted.' })
  policy!: Policy | null;

  @Field(() => Int, { description: "The tenant's version that carries the change." })
  version!: number;

  @Field(() => [CounterReset], { description: COUNTERS_RESET })
  countersReset!: CounterReset[];
}

@ObjectType()
export class EffectivePolicyPayload {
  @Field(() => EffectivePolicy)
  policy!: EffectivePolicy;

  @Field(() => Int)
  version!: number;

  @Field(() => [CounterReset], { description: COUNTERS_RESET })
  countersReset!: CounterReset[];
}
