import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor, Roles } from '../auth/decorators';
import { User } from '../auth/models/user.model';
import { type Connection, PageArgs } from '../graphql/pagination';
import { connectionComplexity } from '../graphql/query-limits';
import { MemberService } from './member.service';
import {
  ChangeMemberRoleInput,
  Member,
  MemberConnection,
  UpdateProfileInput,
  UserConnection,
  UserFilter,
} from './models/member.model';

@Resolver(() => Member)
export class MemberResolver {
  constructor(private readonly service: MemberService) {}

  @Query(() => MemberConnection, {
    complexity: connectionComplexity,
    description:
      "A tenant's members and their roles, oldest membership first: for its members and operators.",
  })
  members(
    @CurrentUser() user: AuthUser,
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('search', {
      type: () => String,
      nullable: true,
      description: 'Part of the name or the email (any case), at most 100 characters.',
    })
    search: string | null,
    @Args() page: PageArgs,
  ): Promise<Connection<Member>> {
    return this.service.members(user, tenantId, page, search);
  }

  @Roles('operator')
  @Query(() => MemberConnection, {
    complexity: connectionComplexity,
    description: "The platform's operators (operators only).",
  })
  operators(@Args() page: PageArgs): Promise<Connection<Member>> {
    return this.service.operators(page);
  }

  @Roles('operator')
  @Query(() => UserConnection, {
    complexity: connectionComplexity,
    description: 'Every user with all their memberships, by email (operators only).',
  })
  users(
    @Args('filter', { type: () => UserFilter, nullable: true }) filter: UserFilter | null,
    @Args() page: PageArgs,
  ): Promise<Connection<User>> {
    return this.service.users(filter, page);
  }

  @Mutation(() => Member, {
    description:
      "Changes a member's tenant role (the tenant's admins, operators). Demoting the last TENANT_ADMIN is a CONFLICT.",
  })
  changeMemberRole(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: ChangeMemberRoleInput,
  ): Promise<Member> {
    return this.service.changeRole(user, actor, input);
  }

  @Mutation(() => Boolean, {
    description:
      "Removes a user from a tenant (the tenant's admins, operators), or without tenantId from the operators (operators only). Removing the last TENANT_ADMIN of a tenant or the last operator is a CONFLICT. The user's sessions lose the role at once.",
  })
  removeMember(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('userId', { type: () => ID }) userId: string,
    @Args('tenantId', { type: () => ID, nullable: true }) tenantId: string | null,
  ): Promise<boolean> {
    return this.service.remove(user, actor, userId, tenantId ?? null);
  }

  @Mutation(() => User, { description: "Changes the caller's own name." })
  updateProfile(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: UpdateProfileInput,
  ): Promise<User> {
    return this.service.updateProfile(user, actor, input);
  }

  @Roles('operator')
  @Mutation(() => User, {
    description:
      "Disables an account (it cannot log in, its sessions end) or enables it again (operators only). Not one's own, nor the last enabled operator (CONFLICT).",
  })
  setUserDisabled(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('disabled') disabled: boolean,
  ): Promise<User> {
    return this.service.setDisabled(user, actor, id, disabled);
  }
}
