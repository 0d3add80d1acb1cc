import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { DeliveryStatus } from '@sluice/db';

/** GraphQL names of the attempt statuses (values are the stored ones). */
export const WebhookDeliveryStatusEnum = {
  PENDING: 'pending',
  DELIVERED: 'delivered',
  FAILED: 'failed',
  DEAD: 'dead',
} as const satisfies Record<string, DeliveryStatus>;

registerEnumType(WebhookDeliveryStatusEnum, {
  name: 'WebhookDeliveryStatus',
  description:
    'DELIVERED: a 2xx answer. FAILED: no 2xx, tried again later. DEAD: the last attempt failed; the event is in the dead letters.',
});

@ObjectType({
  description:
    'A destination of webhooks: events sent to it wait in a FIFO of `queueCapacity` and leave at `leakRatePerSec` (a leaky bucket), signed with its secret. The secret is stored encrypted and shown once, by createWebhookEndpoint or rotateWebhookEndpointSecret.',
})
export class WebhookEndpoint {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'Unique in the tenant; intake may name the endpoint by it.' })
  name!: string;

  @Field()
  url!: string;

  @Field(() => Float, { description: 'Deliveries per second (0.01 to 1000), constant.' })
  leakRatePerSec!: number;

  @Field(() => Int, { description: 'Events that may wait; more are refused (429).' })
  queueCapacity!: number;

  @Field(() => Int, { description: 'Attempts per event before it goes to the dead letters.' })
  maxAttempts!: number;

  @Field({ description: 'A disabled endpoint refuses events (409) and holds those queued.' })
  enabled!: boolean;

  @Field(() => Date, {
    nullable: true,
    description:
      'After a rotation: until then the previous secret signs too (a second `v1=` entry).',
  })
  previousSecretExpiresAt!: Date | null;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

@ObjectType()
export class WebhookEndpointSecretPayload {
  @Field(() => WebhookEndpoint)
  endpoint!: WebhookEndpoint;

  @Field({
    description:
      'The signing secret (`whsec_…`) for verifying `Sluice-Signature`. Shown only in this answer: it is stored encrypted and never sent back.',
  })
  secret!: string;
}

@ObjectType({ description: 'One delivery attempt.' })
export class WebhookDelivery {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'The same on every attempt of the event (Sluice-Event-Id).' })
  eventId!: string;

  @Field()
  eventType!: string;

  @Field(() => Int, { description: '1, 2, …; a replay goes on numbering.' })
  attempt!: number;

  @Field(() => WebhookDeliveryStatusEnum)
  status!: DeliveryStatus;

  @Field(() => Int, { nullable: true, description: 'null: no answer (refused, timeout).' })
  responseCode!: number | null;

  @Field(() => Int, { nullable: true })
  latencyMs!: number | null;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field()
  createdAt!: Date;
}

@ObjectType({ description: 'An event whose last attempt failed; replayable.' })
export class WebhookDeadLetter {
  @Field(() => ID)
  eventId!: string;

  @Field(() => String, { nullable: true })
  eventType!: string | null;

  @Field({ description: 'When its last attempt failed.' })
  diedAt!: Date;

  @Field(() => String, { nullable: true, description: 'Why its last attempt failed.' })
  lastError!: string | null;
}

@ObjectType({ description: "An endpoint's queue now, as the workers see it in Redis." })
export class WebhookQueue {
  @Field(() => Int, { description: 'Events admitted and not yet delivered or dead.' })
  depth!: number;

  @Field(() => Float)
  leakRatePerSec!: number;

  @Field(() => Int, { description: 'Deliveries in progress.' })
  inFlight!: number;

  @Field(() => Float, { description: 'Events delivered since the endpoint was made.' })
  delivered!: number;

  @Field(() => Float, { description: 'Failed attempts since the endpoint was made.' })
  failed!: number;

  @Field(() => Int, { description: 'Events in the dead letters now.' })
  dead!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'Ms since the oldest waiting event was admitted; null when none waits.',
  })
  oldestWaitingMs!: number | null;

  @Field(() => Date, {
    nullable: true,
    description: "Nothing is sent before this (a receiver's Retry-After, repeated failures).",
  })
  pausedUntil!: Date | null;

  @Field(() => Int)
  consecutiveFailures!: number;

  @Field(() => Float, {
    description:
      "Ms until the events waiting now have left at the endpoint's rate, after its pause; 0 when none waits. A replay of n dead letters is delivered about n ÷ leakRatePerSec seconds after that, if its attempts succeed.",
  })
  timeToDrainMs!: number;

  @Field(() => [WebhookDelivery], { description: 'The latest attempts, newest first.' })
  recentDeliveries!: WebhookDelivery[];

  @Field(() => [WebhookDeadLetter], { description: 'The latest dead letters, newest first.' })
  deadLetters!: WebhookDeadLetter[];
}

@ObjectType()
export class WebhookReplayPayload {
  @Field(() => [ID], { description: 'Queued again, with their event ids.' })
  replayed!: string[];

  @Field(() => [ID], {
    description: "Not among the endpoint's dead letters (any more), or past their retention.",
  })
  missing!: string[];

  @Field(() => Int, {
    description: 'Dead letters of the endpoint left: a call replays at most 1000, oldest first.',
  })
  remaining!: number;
}
