import { Field, Float, ID, InputType, Int } from '@nestjs/graphql';

@InputType()
export class CreateWebhookEndpointInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'Lowercase letters, digits, `_` and `-`; unique in the tenant.' })
  name!: string;

  @Field({
    description:
      'http:// or https://, without credentials; its host must resolve to public addresses.',
  })
  url!: string;

  @Field(() => Float, { description: 'Deliveries per second, 0.01 to 1000.' })
  leakRatePerSec!: number;

  @Field(() => Int, { description: 'Events that may wait, 1 to 100000.' })
  queueCapacity!: number;

  @Field(() => Int, { nullable: true, description: '1 to 25; absent: 8.' })
  maxAttempts?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Absent: true.' })
  enabled?: boolean | null;
}

@InputType({ description: 'Absent fields stay as they are.' })
export class UpdateWebhookEndpointInput {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => Float, { nullable: true })
  leakRatePerSec?: number | null;

  @Field(() => Int, { nullable: true })
  queueCapacity?: number | null;

  @Field(() => Int, { nullable: true })
  maxAttempts?: number | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean | null;
}
