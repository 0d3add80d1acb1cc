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
      'Default: SECOND when the range starts within the last 15 minutes and spans at most 900 seconds, else MINUTE up to a day, HOUR up to 744 hours, else DAY.',
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

  @Field(() => String, { nullable: true, description: 'Only entries of this identifier.' })
  identifier?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only entries whose identifier starts with this (e.g. `org-42:`).',
  })
  identifierPrefix?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only entries this rule denied (or, in shadow mode, would have).',
  })
  rule?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Only entries of this reason code (`rule`, `local`, `fail-closed`, `suspended`, `shadow`, …).',
  })
  reason?: string | null;

  @Field(() => Date, { nullable: true, description: 'Only decisions made at or after this time.' })
  from?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Only decisions made before this time.' })
  to?: Date | null;
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
