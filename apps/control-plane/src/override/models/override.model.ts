import { ArgsType, Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType, PageArgs } from '../../graphql/pagination';
import { Override } from '../../policy/models/policy.model';
import { RuleChangeInput } from '../../policy/models/rule.model';
import { COUNTERS_RESET, CounterReset } from '../../policy/models/counter-reset.model';

@ObjectType()
export class OverrideConnection extends ConnectionType(Override) {}

@ArgsType()
export class OverridesArgs extends PageArgs {
  @Field(() => ID)
  tenantId!: string;

  @Field(() => String, { nullable: true, description: 'Only those of this policy (by name).' })
  policy?: string | null;

  @Field(() => String, { nullable: true, description: 'Part of the identifier.' })
  search?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Include expired ones (default true).' })
  includeExpired?: boolean | null;
}

@InputType()
export class CreateOverrideInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'The policy (by name) whose rules it changes for the identifier.' })
  policy!: string;

  @Field({
    description:
      'An exact identifier (1..256 bytes), or a prefix followed by * (premium_*) for every identifier that starts with it; the longest matching prefix wins.',
  })
  identifier!: string;

  @Field(() => [RuleChangeInput], { description: 'New parameters for some of the policy’s rules.' })
  rules!: RuleChangeInput[];

  @Field(() => Date, { nullable: true, description: 'From then on it is ignored (kept, listed).' })
  expiresAt?: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why (shown in checks’ traces and the dashboard).',
  })
  reason?: string | null;
}

@InputType()
export class UpdateOverrideInput {
  @Field(() => [RuleChangeInput], { nullable: true, description: 'Replaces its rules.' })
  rules?: RuleChangeInput[] | null;

  @Field(() => Date, { nullable: true })
  expiresAt?: Date | null;

  @Field(() => Boolean, { nullable: true, description: 'Removes the expiry.' })
  clearExpiry?: boolean | null;

  @Field(() => String, { nullable: true })
  reason?: string | null;
}

@ObjectType()
export class OverridePayload {
  @Field(() => Override, { nullable: true, description: 'Null once deleted.' })
  override!: Override | null;

  @Field(() => Int)
  version!: number;

  @Field(() => [CounterReset], { description: COUNTERS_RESET })
  countersReset!: CounterReset[];
}
