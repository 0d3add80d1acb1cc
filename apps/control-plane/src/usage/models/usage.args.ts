import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { PageArgs } from '../../graphql/pagination';
import { DecisionOutcome, UsageResolution } from './usage.model';

@InputType()
export class UsageSeriesInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'Policy name.' })
  policy!: string;

  @Field({ description: 'Start of the range (included).' })
  from!: Date;

  @Field({ description: 'End of the range (excluded); later than now, the series stops at now.' })
  to!: Date;

  @Field(() => UsageResolution, {
    nullable: true,
    description:
      'Default: SECOND when the range starts within the last 15 minutes and spans at most 900 seconds, else MINUTE.',
  })
  resolution?: UsageResolution | null;
}

@ArgsType()
export class UsageRangeArgs {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'Start of the range (included), rounded down to its minute.' })
  from!: Date;

  @Field({ description: 'End of the range (excluded), rounded up to its minute.' })
  to!: Date;
}

@ArgsType()
export class TopDeniedArgs extends UsageRangeArgs {
  @Field({ description: 'Policy name.' })
  policy!: string;

  @Field(() => Int, { defaultValue: 10, description: 'Identifiers to return, 1 to 100.' })
  limit!: number;
}

@ArgsType()
export class DecisionLogArgs extends PageArgs {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'Policy name.' })
  policy!: string;

  @Field(() => DecisionOutcome, { nullable: true, description: 'Only entries of this outcome.' })
  outcome?: DecisionOutcome | null;
}

@ArgsType()
export class UsageUpdatedArgs {
  @Field(() => ID)
  tenantId!: string;

  @Field(() => String, {
    nullable: true,
    description: "One policy; default: each of the tenant's published policies.",
  })
  policy?: string | null;
}

@ArgsType()
export class PolicyChangedArgs {
  @Field(() => ID)
  tenantId!: string;
}
