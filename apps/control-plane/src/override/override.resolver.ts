import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import {
  CreateOverrideInput,
  OverrideConnection,
  OverridePayload,
  OverridesArgs,
  UpdateOverrideInput,
} from './models/override.model';
import { OverrideService } from './override.service';

@Resolver()
export class OverrideResolver {
  constructor(private readonly service: OverrideService) {}

  @Query(() => OverrideConnection)
  overrides(@CurrentUser() user: AuthUser, @Args() args: OverridesArgs) {
    return this.service.list(user, args);
  }

  @Mutation(() => OverridePayload)
  createOverride(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: CreateOverrideInput,
  ) {
    return this.service.create(user, actor, input);
  }

  @Mutation(() => OverridePayload)
  updateOverride(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateOverrideInput,
  ) {
    return this.service.update(user, actor, id, input);
  }

  @Mutation(() => OverridePayload)
  deleteOverride(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
  ) {
    return this.service.delete(user, actor, id);
  }
}
