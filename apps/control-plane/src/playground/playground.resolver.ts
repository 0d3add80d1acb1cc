import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import {
  PlaygroundCheckInput,
  PlaygroundDecision,
  PlaygroundPeekArgs,
  PlaygroundRun,
} from './models/playground.model';
import { AlgorithmComparisonService } from './algorithm-comparison.service';
import { AlgorithmComparison, AlgorithmComparisonArgs } from './models/algorithm-comparison.model';
import { PlaygroundService } from './playground.service';

@Resolver()
export class PlaygroundResolver {
  constructor(
    private readonly playground: PlaygroundService,
    private readonly comparison: AlgorithmComparisonService,
  ) {}

  @Mutation(() => PlaygroundRun, {
    description:
      "Fires checks at a published policy through the data plane's engine, as a service would: on the scratch identifier space unless `realIdentifier`; audited. They count in the tenant's usage and request log. Tenant admins and operators; one run at a time per user (TOO_MANY_REQUESTS).",
  })
  playgroundCheck(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: PlaygroundCheckInput,
  ) {
    return this.playground.run(user, actor, input);
  }

  @Query(() => PlaygroundDecision, {
    description:
      "An identifier's state under a published policy: every rule peeked, nothing spent or counted. Tenant members and operators.",
  })
  playgroundPeek(@CurrentUser() user: AuthUser, @Args() args: PlaygroundPeekArgs) {
    return this.playground.peek(user, args);
  }

  @Query(() => AlgorithmComparison, {
    description:
      'Replays an arrival pattern through every rate algorithm at the same limit per window: what each admits over time, and the most in any window ÷ the limit. Any signed-in user; one at a time per user (TOO_MANY_REQUESTS).',
  })
  algorithmComparison(@CurrentUser() user: AuthUser, @Args() args: AlgorithmComparisonArgs) {
    return this.comparison.compare(user, args);
  }
}
