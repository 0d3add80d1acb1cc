import { ArgsType, Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { PlaygroundDecision } from '../../playground/models/playground.model';
import { Override } from '../../policy/models/policy.model';

@ArgsType()
export class IdentifierStateArgs {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'A policy the tenant has published.' })
  policy!: string;

  @Field({ description: "The identifier as the tenant's services send it." })
  identifier!: string;

  @Field(() => Int, {
    defaultValue: 1,
    description: '`next` is answered for a check of this cost, 0 to 1e9.',
  })
  cost!: number;
}

@InputType()
export class ResetIdentifierInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'A policy the tenant has published.' })
  policy!: string;

  @Field({ description: "The identifier as the tenant's services send it." })
  identifier!: string;
}

@ObjectType({ description: "One identifier under one of its tenant's policies, as it stands now." })
export class IdentifierState {
  @Field(() => ID)
  tenantId!: string;

  @Field()
  policy!: string;

  @Field()
  identifier!: string;

  @Field(() => PlaygroundDecision, {
    description:
      "Every rule peeked (a check of cost 0; candidates too): each rule's remaining and reset now. Nothing spent or counted.",
  })
  now!: PlaygroundDecision;

  @Field(() => PlaygroundDecision, {
    description:
      "What a check of the cost asked for would answer now (allowed, the rule that would deny, retry after), nothing spent or counted; its rules' figures are as they would be after that check.",
  })
  next!: PlaygroundDecision;

  @Field(() => [Override], {
    description:
      "The policy's overrides whose identifier or prefix matches, in the order a check tries them (exact, then the longest prefix); expired ones included. `now.overrideId` is the one that applies.",
  })
  overrides!: Override[];

  @Field({
    description:
      "Whether the caller may reset the identifier's counters: operators, and tenant admins where the tenant's plan allows it (`Plan.tenantCounterResets`).",
  })
  canReset!: boolean;
}

@ObjectType()
export class ResetIdentifierPayload {
  @Field(() => Int, {
    description: 'Counter keys that existed and were deleted (0: nothing to reset).',
  })
  deleted!: number;

  @Field(() => IdentifierState, {
    description: 'The identifier after the reset (`next` for a check of cost 1).',
  })
  state!: IdentifierState;
}
