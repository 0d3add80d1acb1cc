import { Field, ID, ObjectType } from '@nestjs/graphql';
import type { Role } from '@sluice/db';
import { RoleEnum } from './role.enum';

@ObjectType()
export class Membership {
  @Field(() => ID, { nullable: true, description: 'null for OPERATOR.' })
  tenantId!: string | null;

  @Field(() => RoleEnum)
  role!: Role;
}

@ObjectType()
export class User {
  @Field(() => ID)
  id!: string;

  @Field()
  email!: string;

  @Field()
  name!: string;

  @Field(() => [Membership])
  memberships!: readonly Membership[];

  @Field()
  createdAt!: Date;

  @Field(() => Date, {
    nullable: true,
    description: 'Set while an operator has disabled the account (it cannot log in).',
  })
  disabledAt?: Date | null;
}
