import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';
import type { Role } from '@sluice/db';
import { SessionTransport } from '../../auth/models/login.model';
import { RoleEnum } from '../../auth/models/role.enum';
import { ConnectionType } from '../../graphql/pagination';

@ObjectType({ description: 'A pending invitation; its link (token) is only ever in the mail.' })
export class Invitation {
  @Field(() => ID)
  id!: string;

  @Field()
  email!: string;

  @Field(() => RoleEnum)
  role!: Role;

  @Field(() => ID, { nullable: true, description: 'null for an OPERATOR invitation.' })
  tenantId!: string | null;

  @Field({ description: 'The link stops working then.' })
  expiresAt!: Date;

  @Field(() => ID, { description: 'The user who sent it.' })
  createdById!: string;

  @Field()
  createdAt!: Date;
}

@ObjectType()
export class InvitationConnection extends ConnectionType(Invitation) {}

@ObjectType({ description: 'What an invitation link offers, for the page that accepts it.' })
export class InvitationPreview {
  @Field()
  email!: string;

  @Field(() => RoleEnum)
  role!: Role;

  @Field(() => ID, { nullable: true })
  tenantId!: string | null;

  @Field(() => String, { nullable: true, description: 'null for an OPERATOR invitation.' })
  tenantName!: string | null;

  @Field()
  expiresAt!: Date;

  @Field({
    description:
      'Whether the email already has an account: then acceptInvitation takes its current password (and no name); otherwise a name and a new password.',
  })
  accountExists!: boolean;
}

@InputType()
export class InviteMemberInput {
  @Field()
  email!: string;

  @Field(() => RoleEnum)
  role!: Role;

  @Field(() => ID, {
    nullable: true,
    description: 'The tenant, for TENANT_ADMIN and TENANT_VIEWER; absent for OPERATOR.',
  })
  tenantId?: string | null;
}

@InputType()
export class AcceptInvitationInput {
  @Field({ description: 'The token of the mailed link (`…/invite/<token>`).' })
  token!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Required for a new account (1 to 100 characters); ignored for an existing one.',
  })
  name?: string | null;

  @Field({
    description:
      "A new account's password (at least 12 characters), or the existing account's current password.",
  })
  password!: string;

  @Field(() => SessionTransport, { defaultValue: SessionTransport.COOKIE })
  transport!: SessionTransport;
}
