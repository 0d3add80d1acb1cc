import { ArgsType, Field, Float, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { MAX_COMPARISON_LIMIT } from '@sluice/algorithms';

export enum ArrivalPattern {
  BOUNDARY_SPIKE = 'boundary_spike',
  STEADY_OVER_LIMIT = 'steady_over_limit',
  BURSTS = 'bursts',
}

registerEnumType(ArrivalPattern, {
  name: 'ArrivalPattern',
  description:
    'Over three windows. BOUNDARY_SPIKE: `limit` requests just before the first window edge and `limit` just after (1/120 of a window either side). STEADY_OVER_LIMIT: twice the limit per window, evenly spaced. BURSTS: `limit` requests at once every half window.',
});

/** Longest window a comparison may replay (a day). */
export const MAX_COMPARISON_WINDOW_SECONDS = 86_400;

@ArgsType()
export class AlgorithmComparisonArgs {
  @Field(() => ArrivalPattern)
  pattern!: ArrivalPattern;

  @Field(() => Int, {
    defaultValue: 10,
    description: `Requests per window every algorithm allows, 1 to ${MAX_COMPARISON_LIMIT}.`,
  })
  limit!: number;

  @Field(() => Int, {
    defaultValue: 10,
    description: `The window, 1 to ${MAX_COMPARISON_WINDOW_SECONDS} seconds.`,
  })
  windowSeconds!: number;
}

@ObjectType()
export class AlgorithmAdmissions {
  @Field({ description: 'token_bucket, leaky_bucket, fixed_window, sliding_window_log, …' })
  algorithm!: string;

  @Field(() => Int, { description: 'Requests admitted in all.' })
  admitted!: number;

  @Field(() => [Int], { description: 'Admitted per bucket, as `arrivals`.' })
  perBucket!: number[];

  @Field(() => Int, { description: "The most admitted within any one window's length." })
  mostInAnyWindow!: number;

  @Field(() => Float, { description: '`mostInAnyWindow` ÷ the limit (1 never exceeds it).' })
  mostInAnyWindowRatio!: number;
}

@ObjectType({
  description:
    "One arrival pattern replayed through each rate algorithm's Lua script, all set to the same limit per window, with an injected clock on scratch keys.",
})
export class AlgorithmComparison {
  @Field(() => ArrivalPattern)
  pattern!: ArrivalPattern;

  @Field(() => Int)
  limit!: number;

  @Field(() => Float)
  windowMs!: number;

  @Field(() => Float, { description: 'The buckets of the series: a tenth of a window.' })
  bucketMs!: number;

  @Field(() => [Int], { description: 'Arrivals per bucket, from the start of the replay.' })
  arrivals!: number[];

  @Field(() => [AlgorithmAdmissions])
  algorithms!: AlgorithmAdmissions[];
}
