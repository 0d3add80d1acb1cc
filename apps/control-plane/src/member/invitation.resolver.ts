import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, Public, RequestActor } from '../auth/decorators';
import { LoginPayload } from '../auth/models/login.model';
import type { GraphqlContext } from '../graphql/graphql-context';
import { type Connection, PageArgs } from '../graphql/pagination';
import { connectionComplexity } from '../graphql/query-limits';
import { InvitationService } from './invitation.service';
import {
  AcceptInvitationInput,
  Invitation,
  InvitationConnection,
  InvitationPreview,
  InviteMemberInput,
} from './models/invitation.model';

@Resolver(() => Invitation)
export class InvitationResolver {
  constructor(private readonly service: InvitationService) {}

  @Mutation(() => Invitation, {
    description:
      'Mails a one-time link inviting an address to a tenant role (operators, and admins of that tenant) or to OPERATOR (operators only). Replaces a pending invitation of the same address to the same tenant. An address that is already a member is a CONFLICT.',
  })
  inviteMember(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: InviteMemberInput,
  ): Promise<Invitation> {
    return this.service.invite(user, actor, input);
  }

  @Query(() => InvitationConnection, {
    complexity: connectionComplexity,
    description:
      "A tenant's pending invitations, newest first (its members, operators); without tenantId the pending OPERATOR invitations (operators only).",
  })
  invitations(
    @CurrentUser() user: AuthUser,
    @Args('tenantId', { type: () => ID, nullable: true }) tenantId: string | null,
    @Args('search', {
      type: () => String,
      nullable: true,
      description: 'Part of the email (any case), at most 100 characters.',
    })
    search: string | null,
    @Args() page: PageArgs,
  ): Promise<Connection<Invitation>> {
    return this.service.pending(user, tenantId ?? null, page, search);
  }

  @Mutation(() => Boolean, {
    description: 'Withdraws a pending invitation: its link stops working.',
  })
  revokeInvitation(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
  ): Promise<boolean> {
    return this.service.revoke(user, actor, id);
  }

  @Public()
  @Query(() => InvitationPreview, {
    description:
      'What an invitation link offers, for the page that accepts it. A bad, used or expired token is BAD_USER_INPUT on token.',
  })
  invitationPreview(@Args('token') token: string): Promise<InvitationPreview> {
    return this.service.preview(token);
  }

  @Public()
  @Mutation(() => LoginPayload, {
    description:
      "Accepts an invitation (once, before it expires) and starts a session like login. A new address gets an account with the given name and password; an address that has one gives that account's current password (UNAUTHENTICATED if wrong, throttled like login) and gains the membership.",
  })
  acceptInvitation(
    @Args('input') input: AcceptInvitationInput,
    @Context() context: GraphqlContext,
  ): Promise<LoginPayload> {
    return this.service.accept(input, context.meta, context.reply);
  }
}
