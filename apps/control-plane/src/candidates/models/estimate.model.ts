import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { RuleInput } from '../../policy/models/rule.model';

@InputType()
export class EstimateRulesInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'One of the tenant’s policies, by name.' })
  policy!: string;

  @Field(() => [RuleInput], {
    description:
      'The rules to estimate, 1 to 8: proposed ones, and the live ones to compare them with. No concurrency rules.',
  })
  rules!: RuleInput[];
}

@ObjectType({ description: 'One rule replayed over the heaviest identifiers’ spend.' })
export class RuleEstimate {
  @Field()
  name!: string;

  @Field(() => Int, { description: 'Identifiers whose spend it would have denied some of.' })
  wouldExceed!: number;

  @Field(() => Float, { description: 'The cost it would have denied, all of them together.' })
  deniedCost!: number;

  @Field(() => [String], {
    description: 'Up to 5 of the identifiers it would have denied, the costliest first.',
  })
  examples!: string[];

  @Field({
    description:
      'Its window (or the time a bucket takes to refill) is longer than the 15 minutes replayed: spend before them is not counted, so it would deny at least this much.',
  })
  outlastsRange!: boolean;
}

@ObjectType({
  description:
    "How the policy's heaviest identifiers of the last 15 minutes (the top 100 by cost, fewer when many rules would take long to replay) would have fared under each rule: their spend per minute (as the data planes keep it) replayed through the rule's reference model from empty counters, each minute spread evenly over it. An approximation: bursts within a minute are not known.",
})
export class RulesEstimate {
  @Field()
  from!: Date;

  @Field()
  to!: Date;

  @Field(() => Int, {
    description: 'Identifiers replayed: the heaviest with spend in the range, at most 100.',
  })
  identifiers!: number;

  @Field(() => [RuleEstimate], { description: 'In the order of the input.' })
  rules!: RuleEstimate[];
}
