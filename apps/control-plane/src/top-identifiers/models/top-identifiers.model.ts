import { ArgsType, Field, Float, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { UsageRangeArgs } from '../../usage/models/usage.args';

export enum TopIdentifiersBy {
  COST = 'cost',
  DENIED = 'denied',
}
registerEnumType(TopIdentifiersBy, {
  name: 'TopIdentifiersBy',
  description:
    'COST: the heaviest consumers (what their allowed checks charged); DENIED: the most denied.',
});

@ArgsType()
export class TopIdentifiersArgs extends UsageRangeArgs {
  @Field({ description: 'Policy name.' })
  policy!: string;

  @Field(() => TopIdentifiersBy, { defaultValue: TopIdentifiersBy.COST })
  by!: TopIdentifiersBy;

  @Field(() => Int, { defaultValue: 10, description: 'Identifiers to return, 1 to 25.' })
  limit!: number;
}

@ObjectType({ description: "One live rule's quota for an identifier now, and when it runs out." })
export class IdentifierQuota {
  @Field()
  rule!: string;

  @Field()
  algorithm!: string;

  @Field(() => Float, { description: 'Capacity, limit or burst.' })
  limit!: number;

  @Field(() => Float, { description: 'Whole units left now (negative in debt).' })
  remaining!: number;

  @Field(() => Float, { description: 'Share of the quota used now: 1 - remaining / limit, 0..1+.' })
  used!: number;

  @Field({ description: 'When the rule is back to full (buckets) or its window ends.' })
  resetAt!: Date;

  @Field(() => Float, { description: 'Its quota window (a bucket: its refill time), ms.' })
  windowMs!: number;

  @Field(() => Date, {
    nullable: true,
    description:
      "Burn-down, for quotas of an hour or more: when it runs out at the identifier's rate over the range (now when it has). Null: not before it resets or refills, or a shorter quota.",
  })
  runsOutAt!: Date | null;
}

@ObjectType({ description: 'A heavy consumer or a most denied identifier of a policy.' })
export class TopIdentifier {
  @Field()
  identifier!: string;

  @Field(() => Float, {
    description:
      'What its allowed checks charged over the range (a reservation counts its estimate); approximate: each minute keeps its 100 costliest.',
  })
  cost!: number;

  @Field(() => Float, {
    description:
      "Its denials over the range (exact while it stayed among a minute's 100 most denied).",
  })
  denied!: number;

  @Field(() => [IdentifierQuota], { description: 'Each live rule now (a peek: nothing spent).' })
  quota!: IdentifierQuota[];
}
