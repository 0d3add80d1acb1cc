import { Field, Float, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { AnyAlgorithm } from '@sluice/algorithms';
import type { FailMode, OverrideMatch, PolicyMode } from '@sluice/policy';
import type { RuleParams, RuleRow, TenantBounds } from '../../policy-config/tenant-state';

export const AlgorithmEnum = {
  TOKEN_BUCKET: 'token_bucket',
  LEAKY_BUCKET: 'leaky_bucket',
  FIXED_WINDOW: 'fixed_window',
  SLIDING_WINDOW_LOG: 'sliding_window_log',
  SLIDING_WINDOW_COUNTER: 'sliding_window_counter',
  GCRA: 'gcra',
  CONCURRENCY: 'concurrency',
} as const satisfies Record<string, AnyAlgorithm>;
registerEnumType(AlgorithmEnum, {
  name: 'Algorithm',
  description:
    'TOKEN_BUCKET (capacity, refillPerSecond), LEAKY_BUCKET (capacity, leakPerSecond), FIXED_WINDOW (limit, windowMs or calendar), SLIDING_WINDOW_LOG and SLIDING_WINDOW_COUNTER (limit, windowMs), GCRA (limit, periodMs, burst?), CONCURRENCY (limit in flight, leaseTtlMs).',
});

export const PolicyModeEnum = { ENFORCE: 'enforce', SHADOW: 'shadow' } as const satisfies Record<
  string,
  PolicyMode
>;
registerEnumType(PolicyModeEnum, {
  name: 'PolicyMode',
  description: 'ENFORCE denies; SHADOW decides and counts but always allows.',
});

export const FailModeEnum = {
  OPEN: 'open',
  CLOSED: 'closed',
  LOCAL: 'local',
} as const satisfies Record<string, FailMode>;
registerEnumType(FailModeEnum, {
  name: 'FailMode',
  description:
    'What a check answers when Redis fails or is too slow: OPEN allows, CLOSED refuses (503), LOCAL decides with an in-process limiter.',
});

export const OverrideMatchEnum = { EXACT: 'exact', PREFIX: 'prefix' } as const satisfies Record<
  string,
  OverrideMatch
>;
registerEnumType(OverrideMatchEnum, { name: 'OverrideMatch' });

export const CalendarUnitEnum = { DAY: 'day', MONTH: 'month' } as const;
registerEnumType(CalendarUnitEnum, { name: 'CalendarUnit' });

@InputType()
export class CalendarWindowInput {
  @Field(() => CalendarUnitEnum)
  unit!: 'day' | 'month';

  @Field({ description: 'IANA time zone, e.g. Europe/Paris.' })
  timeZone!: string;
}

@ObjectType()
export class CalendarWindow {
  @Field(() => CalendarUnitEnum)
  unit!: 'day' | 'month';

  @Field()
  timeZone!: string;
}

/** The parameters of every algorithm, each optional: a rule takes those of its algorithm. */
@InputType({ isAbstract: true })
export abstract class RuleParamsInput {
  @Field(() => Int, { nullable: true, description: 'Buckets: most units held (1..1e9).' })
  capacity?: number | null;

  @Field(() => Float, { nullable: true, description: 'Token bucket: units added per second.' })
  refillPerSecond?: number | null;

  @Field(() => Float, { nullable: true, description: 'Leaky bucket: units leaving per second.' })
  leakPerSecond?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Windows and GCRA: units per window or period; concurrency: most in flight.',
  })
  limit?: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Windows: length in ms, 1 s to 31 days (an integer; Float because it may exceed 2^31).',
  })
  windowMs?: number | null;

  @Field(() => CalendarWindowInput, {
    nullable: true,
    description: 'Fixed window: a calendar day or month in a time zone, instead of windowMs.',
  })
  calendar?: CalendarWindowInput | null;

  @Field(() => Float, { nullable: true, description: 'GCRA: the period of `limit`, in ms.' })
  periodMs?: number | null;

  @Field(() => Int, { nullable: true, description: 'GCRA: units that may pass at once.' })
  burst?: number | null;

  @Field(() => Int, { nullable: true, description: 'Concurrency: how long a lease holds (ms).' })
  leaseTtlMs?: number | null;
}

@InputType({ description: 'The range a tenant may change one parameter of a template rule in.' })
export class ParamBoundInput {
  @Field({ description: 'A numeric parameter of the rule, e.g. capacity.' })
  param!: string;

  @Field(() => Float, { nullable: true })
  min?: number | null;

  @Field(() => Float, { nullable: true })
  max?: number | null;
}

@ObjectType()
export class ParamBound {
  @Field()
  param!: string;

  @Field(() => Float, { nullable: true })
  min!: number | null;

  @Field(() => Float, { nullable: true })
  max!: number | null;
}

@InputType()
export class RuleInput extends RuleParamsInput {
  @Field({
    description:
      'Unique in the policy; names the counter: renaming one, or changing its algorithm or window, starts it afresh.',
  })
  name!: string;

  @Field(() => AlgorithmEnum)
  algorithm!: AnyAlgorithm;

  @Field(() => [ParamBoundInput], {
    nullable: true,
    description:
      'Plan templates only: the parameters a tenant may change, and within which range. Absent: none.',
  })
  tenantBounds?: ParamBoundInput[] | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Candidate rules only: the live rule this one proposes new values for. Applying the candidates puts them in that rule, whose counters carry on where its algorithm and window stay. Absent: a new rule.',
  })
  replaces?: string | null;
}

@InputType({ description: 'New values for some parameters of one rule, named by the rule.' })
export class RuleChangeInput extends RuleParamsInput {
  @Field()
  name!: string;
}

@ObjectType({ isAbstract: true })
export abstract class RuleParamsModel {
  @Field(() => Int, { nullable: true })
  capacity!: number | null;

  @Field(() => Float, { nullable: true })
  refillPerSecond!: number | null;

  @Field(() => Float, { nullable: true })
  leakPerSecond!: number | null;

  @Field(() => Int, { nullable: true })
  limit!: number | null;

  @Field(() => Float, { nullable: true })
  windowMs!: number | null;

  @Field(() => CalendarWindow, { nullable: true })
  calendar!: CalendarWindow | null;

  @Field(() => Float, { nullable: true })
  periodMs!: number | null;

  @Field(() => Int, { nullable: true })
  burst!: number | null;

  @Field(() => Int, { nullable: true })
  leaseTtlMs!: number | null;
}

@ObjectType()
export class Rule extends RuleParamsModel {
  @Field()
  name!: string;

  @Field(() => AlgorithmEnum)
  algorithm!: AnyAlgorithm;

  @Field({ description: 'Evaluated in shadow beside the live rules, never denies.' })
  candidate!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'Candidate rules: the live rule this one proposes new values for (null: a new rule).',
  })
  replaces!: string | null;

  @Field(() => [ParamBound], { description: 'Templates: what tenants may change.' })
  tenantBounds!: ParamBound[];
}

@ObjectType({ description: 'The parameters an override sets for one rule.' })
export class RuleChange extends RuleParamsModel {
  @Field()
  name!: string;
}

const PARAM_NAMES = [
  'capacity',
  'refillPerSecond',
  'leakPerSecond',
  'limit',
  'windowMs',
  'calendar',
  'periodMs',
  'burst',
  'leaseTtlMs',
] as const;

/** The parameters that were given (null and absent mean "not this one"). */
export function paramsOf(input: RuleParamsInput): RuleParams {
  const params: RuleParams = {};
  for (const name of PARAM_NAMES) {
    const value = input[name];
    if (value === null || value === undefined) continue;
    params[name] = name === 'calendar' ? { ...(value as CalendarWindowInput) } : value;
  }
  return params;
}

export function paramsModel(params: RuleParams): RuleParamsModel {
  const read = (name: string) => (typeof params[name] === 'number' ? params[name] : null);
  const calendar = params['calendar'] as CalendarWindow | undefined;
  return {
    capacity: read('capacity'),
    refillPerSecond: read('refillPerSecond'),
    leakPerSecond: read('leakPerSecond'),
    limit: read('limit'),
    windowMs: read('windowMs'),
    calendar: calendar ?? null,
    periodMs: read('periodMs'),
    burst: read('burst'),
    leaseTtlMs: read('leaseTtlMs'),
  };
}

export function toRuleRow(input: RuleInput, candidate: boolean, withBounds: boolean): RuleRow {
  const bounds: TenantBounds = {};
  for (const bound of input.tenantBounds ?? []) {
    bounds[bound.param] = {
      ...(bound.min !== null && bound.min !== undefined && { min: bound.min }),
      ...(bound.max !== null && bound.max !== undefined && { max: bound.max }),
    };
  }
  return {
    name: input.name,
    algorithm: input.algorithm,
    params: paramsOf(input),
    candidate,
    replaces: candidate ? (input.replaces ?? null) : null,
    tenantBounds: withBounds && input.tenantBounds ? bounds : null,
  };
}

export function ruleModel(rule: RuleRow): Rule {
  return {
    name: rule.name,
    algorithm: rule.algorithm,
    candidate: rule.candidate,
    replaces: rule.replaces,
    ...paramsModel(rule.params),
    tenantBounds: Object.entries(rule.tenantBounds ?? {}).map(([param, bound]) => ({
      param,
      min: bound.min ?? null,
      max: bound.max ?? null,
    })),
  };
}
