import {
  ArgsType,
  Field,
  Float,
  ID,
  InputType,
  Int,
  ObjectType,
  registerEnumType,
} from '@nestjs/graphql';
import { HttpHeader, LoggedRule } from '../../usage/models/usage.model';

export enum PlaygroundMode {
  SEQUENTIAL = 'SEQUENTIAL',
  BURST = 'BURST',
}

registerEnumType(PlaygroundMode, {
  name: 'PlaygroundMode',
  description:
    'SEQUENTIAL: each check after the previous one is answered. BURST: every check sent at once, as concurrent callers would.',
});

/** Where the playground's checks spend unless a real identifier is chosen. */
export const SCRATCH_PREFIX = 'playground:';
/** Checks one playground run may fire. */
export const MAX_PLAYGROUND_CHECKS = 100;

@ArgsType()
export class PlaygroundPeekArgs {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'A policy the tenant has published.' })
  policy!: string;

  @Field({
    description: `Checked as \`${SCRATCH_PREFIX}<identifier>\` (the scratch space) unless \`realIdentifier\`.`,
  })
  identifier!: string;

  @Field({
    defaultValue: false,
    description: "The identifier as given: a real caller's state, and its quota when spent.",
  })
  realIdentifier!: boolean;
}

@InputType()
export class PlaygroundCheckInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'A policy the tenant has published.' })
  policy!: string;

  @Field({
    description: `Checked as \`${SCRATCH_PREFIX}<identifier>\` (the scratch space) unless \`realIdentifier\`.`,
  })
  identifier!: string;

  @Field({
    defaultValue: false,
    description: "Spend the identifier's real quota, as its own callers do.",
  })
  realIdentifier!: boolean;

  @Field(() => Int, { defaultValue: 1, description: 'Cost of each check, 0 to 1e9.' })
  cost!: number;

  @Field(() => Int, {
    defaultValue: 1,
    description: `Checks to fire, 1 to ${MAX_PLAYGROUND_CHECKS}.`,
  })
  count!: number;

  @Field(() => PlaygroundMode, { defaultValue: PlaygroundMode.SEQUENTIAL })
  mode!: PlaygroundMode;
}

@ObjectType({ description: "One decision, as `/v1/check` answers a service's check." })
export class PlaygroundDecision {
  @Field({ description: 'The identifier as checked (with the scratch prefix unless real).' })
  identifier!: string;

  @Field()
  allowed!: boolean;

  @Field({ description: "The engine's reason code (allowed, rule, shadow, suspended, …)." })
  reason!: string;

  @Field(() => String, { nullable: true, description: 'The rule that denied (or would have).' })
  deniedBy!: string | null;

  @Field(() => String, { nullable: true, description: 'The override that applied.' })
  overrideId!: string | null;

  @Field(() => Float, { description: "The headline rule's limit." })
  limit!: number;

  @Field(() => Float, { description: "The headline rule's whole units left." })
  remaining!: number;

  @Field({ description: 'When the headline rule is back to full or its window ends.' })
  resetAt!: Date;

  @Field(() => Float, {
    description: 'Ms until the same cost could pass: 0 when allowed, -1 when it never can.',
  })
  retryAfterMs!: number;

  @Field(() => [LoggedRule], { description: 'Each live rule after the check.' })
  rules!: LoggedRule[];

  @Field(() => [LoggedRule], { description: "The candidate rules' figures (they never deny)." })
  candidates!: LoggedRule[];

  @Field(() => [HttpHeader], {
    description: 'The rate-limit headers `/v1/check` sends with this answer.',
  })
  headers!: HttpHeader[];

  @Field(() => Int, { description: "`/v1/check`'s status: 200, or 503 when it failed closed." })
  status!: number;

  @Field(() => Int, {
    description: 'The status in gateway mode (`?mode=gateway`): 200, 429, 403 or 503.',
  })
  gatewayStatus!: number;

  @Field(() => String, {
    nullable: true,
    description: "A denial's problem+json `detail`, as gateway mode sends it.",
  })
  problemDetail!: string | null;
}

@ObjectType()
export class PlaygroundRun {
  @Field({ description: 'The identifier as checked (with the scratch prefix unless real).' })
  identifier!: string;

  @Field({ description: 'Whether the checks spent real quota.' })
  realIdentifier!: boolean;

  @Field(() => Int)
  allowed!: number;

  @Field(() => Int)
  denied!: number;

  @Field(() => Float, { description: 'Ms from the first check sent to the last answer.' })
  elapsedMs!: number;

  @Field(() => [PlaygroundDecision], { description: 'In the order the checks were sent.' })
  decisions!: PlaygroundDecision[];
}
