import { ArgsType, Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType, PageArgs } from '../../graphql/pagination';
import { Policy } from '../../policy/models/policy.model';
import { COUNTERS_RESET, CounterReset } from '../../policy/models/counter-reset.model';

@ObjectType({
  description: 'A price tier whose policies are templates every tenant on it inherits.',
})
export class Plan {
  @Field(() => ID)
  id!: string;

  @Field()
  slug!: string;

  @Field()
  name!: string;

  @Field()
  description!: string;

  @Field(() => Int, {
    nullable: true,
    description:
      "The plan's own cap on a sliding_window_log rule's limit (units per window); null: the platform's. See slidingLogLimitCap.",
  })
  slidingLogMaxLimit!: number | null;

  @Field({
    description:
      "Whether the tenants' admins may reset an identifier's counters (operators always may). Off unless set: a tenant that resets its own quota defeats the plan.",
  })
  tenantCounterResets!: boolean;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

@ObjectType()
export class PlanConnection extends ConnectionType(Plan) {}

@ArgsType()
export class PlansArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Part of the slug or name (any case).' })
  search?: string | null;
}

@InputType()
export class CreatePlanInput {
  @Field({ description: '1 to 63 lowercase letters, digits or inner hyphens; unique.' })
  slug!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Int, {
    nullable: true,
    description:
      "Most units per window of a sliding_window_log rule under this plan, below the platform's cap (CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT). Null: the platform's.",
  })
  slidingLogMaxLimit?: number | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "Let the tenants' admins reset an identifier's counters. Default: false.",
  })
  tenantCounterResets?: boolean | null;
}

@InputType()
export class UpdatePlanInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Int, {
    nullable: true,
    description:
      "A new cap on a sliding_window_log rule's limit under this plan (at most the platform's). Absent: unchanged; null: back to the platform's. Rules already above it keep working until edited.",
  })
  slidingLogMaxLimit?: number | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "Let the tenants' admins reset an identifier's counters. Absent: unchanged.",
  })
  tenantCounterResets?: boolean | null;
}

@ObjectType({ description: 'What a change to a plan template did to the tenants on the plan.' })
export class PlanPolicyPayload {
  @Field(() => Policy, { nullable: true, description: 'The template (null once deleted).' })
  policy!: Policy | null;

  @Field(() => Int, { description: 'Tenants on the plan whose effective policies changed.' })
  tenantsRepublished!: number;

  @Field(() => Int, {
    description:
      'Tenants whose own changes or overrides no longer fitted the template and were trimmed (see the audit log).',
  })
  tenantsTrimmed!: number;

  @Field(() => [CounterReset], {
    description: `${COUNTERS_RESET} One entry per tenant on the plan and rule.`,
  })
  countersReset!: CounterReset[];
}
