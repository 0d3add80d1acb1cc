import { ArgsType, Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { ActorType } from '@sluice/db';
import { ConnectionType, PageArgs } from '../../graphql/pagination';

export const ActorTypeEnum = {
  USER: 'user',
  API_KEY: 'api_key',
  SYSTEM: 'system',
} as const satisfies Record<string, ActorType>;
registerEnumType(ActorTypeEnum, { name: 'ActorType' });

@ObjectType({ description: 'Who did what, when, with the values before and after.' })
export class AuditEntry {
  @Field(() => ID)
  id!: string;

  @Field()
  at!: Date;

  @Field(() => ActorTypeEnum)
  actorType!: ActorType;

  @Field(() => ID, { nullable: true })
  actorId!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Who the actor is: a user's email, an API key's name; null for the system, an actor since deleted, or (tenant roles) a user who is not a member of the tenant.",
  })
  actorName!: string | null;

  @Field(() => ID, { nullable: true })
  tenantId!: string | null;

  @Field({ description: '<entity>.<verb>, e.g. tenant.update.' })
  action!: string;

  @Field()
  entityType!: string;

  @Field(() => ID)
  entityId!: string;

  @Field(() => String, { nullable: true, description: 'JSON of the values before.' })
  before!: string | null;

  @Field(() => String, { nullable: true, description: 'JSON of the values after.' })
  after!: string | null;

  @Field(() => String, { nullable: true })
  requestId!: string | null;

  @Field(() => String, { nullable: true })
  ip!: string | null;
}

@ObjectType()
export class AuditEntryConnection extends ConnectionType(AuditEntry) {}

@ArgsType()
export class AuditLogArgs extends PageArgs {
  @Field(() => ID, {
    nullable: true,
    description: "A tenant's entries (required for tenant roles); operators may leave it out.",
  })
  tenantId?: string | null;

  @Field(() => String, { nullable: true, description: 'e.g. Policy, Tenant, ApiKey.' })
  entityType?: string | null;

  @Field(() => ID, { nullable: true })
  entityId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'An action, or its prefix ending in . (policy.).',
  })
  action?: string | null;

  @Field(() => ID, { nullable: true })
  actorId?: string | null;

  @Field(() => Date, { nullable: true })
  from?: Date | null;

  @Field(() => Date, { nullable: true })
  to?: Date | null;
}
