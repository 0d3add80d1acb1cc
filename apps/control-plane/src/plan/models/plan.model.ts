import { ArgsType, Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType, PageArgs } from '../../graphql/pagination';
import { Policy } from '../../policy/models/policy.model';

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
}

@InputType()
export class UpdatePlanInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;
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
}
