import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { TenantStatus } from '@sluice/policy';
import { ConnectionType, PageArgs } from '../../graphql/pagination';

export const TenantStatusEnum = {
  ACTIVE: 'active',
  SUSPENDED: 'suspended',
} as const satisfies Record<string, TenantStatus>;
registerEnumType(TenantStatusEnum, {
  name: 'TenantStatus',
  description: "SUSPENDED: every check of the tenant's keys is denied (reason suspended).",
});

@ObjectType()
export class Tenant {
  @Field(() => ID)
  id!: string;

  @Field()
  slug!: string;

  @Field()
  name!: string;

  @Field(() => TenantStatusEnum)
  status!: TenantStatus;

  @Field(() => ID)
  planId!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

@ObjectType()
export class TenantConnection extends ConnectionType(Tenant) {}

@ObjectType({
  description: "Where the tenant's configuration stands between PostgreSQL and Redis.",
})
export class Publication {
  @Field(() => Int, { nullable: true, description: 'The latest version (null before the first).' })
  version!: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'The version the data planes read from Redis (null: none there).',
  })
  redisVersion!: number | null;

  @Field({ description: 'Changes wait in the outbox to be published.' })
  pending!: boolean;
}

@ArgsType()
export class TenantsArgs extends PageArgs {
  @Field(() => TenantStatusEnum, { nullable: true })
  status?: TenantStatus | null;

  @Field(() => ID, { nullable: true })
  planId?: string | null;

  @Field(() => String, { nullable: true, description: 'Part of the slug or name (any case).' })
  search?: string | null;
}

@InputType()
export class CreateTenantInput {
  @Field({ description: '1 to 63 lowercase letters, digits or inner hyphens; unique.' })
  slug!: string;

  @Field()
  name!: string;

  @Field(() => ID)
  planId!: string;
}

@InputType()
export class UpdateTenantInput {
  @Field(() => String, { nullable: true, description: 'Tenant admins may rename their tenant.' })
  name?: string | null;

  @Field(() => ID, {
    nullable: true,
    description:
      "Operators only. The tenant's changes and overrides follow to the new plan's policies of the same names; those with no counterpart are removed (audited).",
  })
  planId?: string | null;
}
