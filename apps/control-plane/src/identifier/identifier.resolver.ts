import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import { IdentifierService } from './identifier.service';
import {
  IdentifierState,
  IdentifierStateArgs,
  ResetIdentifierInput,
  ResetIdentifierPayload,
} from './models/identifier.model';

@Resolver()
export class IdentifierResolver {
  constructor(private readonly identifiers: IdentifierService) {}

  @Query(() => IdentifierState, {
    description:
      "An identifier under a published policy now: each rule's state (a peek, nothing spent), the overrides that match it, whether the caller may reset it. Tenant members and operators.",
  })
  identifierState(@CurrentUser() user: AuthUser, @Args() args: IdentifierStateArgs) {
    return this.identifiers.state(user, args);
  }

  @Mutation(() => ResetIdentifierPayload, {
    description:
      "Deletes the identifier's counters under the policy (every rule, candidates and concurrency leases included): it starts afresh. Audited. Operators; tenant admins only where the tenant's plan allows it (`Plan.tenantCounterResets`), FORBIDDEN otherwise.",
  })
  resetIdentifier(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: ResetIdentifierInput,
  ) {
    return this.identifiers.reset(user, actor, input);
  }
}
