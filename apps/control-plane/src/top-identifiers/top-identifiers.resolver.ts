import { Args, Query, Resolver } from '@nestjs/graphql';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/decorators';
import { TopIdentifier, TopIdentifiersArgs } from './models/top-identifiers.model';
import { TopIdentifiersService } from './top-identifiers.service';

@Resolver()
export class TopIdentifiersResolver {
  constructor(private readonly top: TopIdentifiersService) {}

  @Query(() => [TopIdentifier], {
    description:
      "A policy's heaviest consumers (by COST) or most denied identifiers (by DENIED) over a range of whole minutes (kept 15 minutes), each with its share of every live rule's quota now and, for quotas of an hour or more, when it runs out at its rate. Tenant members and operators.",
  })
  topIdentifiers(@CurrentUser() user: AuthUser, @Args() args: TopIdentifiersArgs) {
    return this.top.top(user, args);
  }
}
