import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';
import type { Role } from '@sluice/db';
import { RoleEnum } from '../../auth/models/role.enum';
import { User } from '../../auth/models/user.model';
import { ConnectionType } from '../../graphql/pagination';

@ObjectType({
  description:
    "A user's role in one tenant, or OPERATOR of the platform (tenantId null). Shows nothing of the user's other memberships.",
})
export class Member {
  @Field(() => ID, { description: "The membership's id." })
  id!: string;

  @Field(() => ID)
  userId!: string;

  @Field()
  email!: string;

  @Field()
  name!: string;

  @Field(() => RoleEnum)
  role!: Role;

  @Field(() => ID, { nullable: true, description: 'null for OPERATOR.' })
  tenantId!: string | null;

  @Field({ description: 'When the user got this membership.' })
  since!: Date;
}

@ObjectType()
export class MemberConnection extends ConnectionType(Member) {}

@ObjectType()
export class UserConnection extends ConnectionType(User) {}

@InputType()
export class UserFilter {
  @Field(() => String, { nullable: true, description: 'Part of the email or name (any case).' })
  search?: string | null;
}

@InputType()
export class ChangeMemberRoleInput {
  @Field(() => ID)
  userId!: string;

  @Field(() => ID)
  tenantId!: string;

  @Field(() => RoleEnum, { description: 'TENANT_ADMIN or TENANT_VIEWER.' })
  role!: Role;
}

@InputType()
export class UpdateProfileInput {
  @Field({ description: 'Your name as others see it, 1 to 100 characters.' })
  name!: string;
}
