import { Field, ID, ObjectType } from '@nestjs/graphql';

/** The description every payload's `countersReset` field carries. */
export const COUNTERS_RESET =
  'The rules whose counters this change left behind (their algorithm or window changed): they decide on fresh counters. Empty when none.';

@ObjectType({
  description:
    'A rule whose counters a change leaves behind: its algorithm or its window changed, so it decides on the keys of its new state: fresh, or after a rollback what it left in them if they have not expired. Every other edit (a limit, a capacity, a rate) keeps the counters.',
})
export class CounterReset {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'The policy, by its name after the change.' })
  policy!: string;

  @Field()
  rule!: string;

  @Field({ description: 'A candidate rule (decided in shadow).' })
  candidate!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'Null: every identifier. Else only the identifiers of this override (`prefix*` for a prefix), whose own algorithm or window changed.',
  })
  override!: string | null;

  @Field({ description: 'The state before, e.g. `fixed_window per 60000 ms`.' })
  before!: string;

  @Field({ description: 'The state after, e.g. `sliding_window_counter per 60000 ms`.' })
  after!: string;
}
