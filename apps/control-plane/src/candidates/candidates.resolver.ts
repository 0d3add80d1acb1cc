import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import { CandidatesService } from './candidates.service';
import { EstimateService } from './estimate.service';
import { EstimateRulesInput, RulesEstimate } from './models/estimate.model';
import { CandidateRulesPayload, TryCandidateRulesInput } from './models/candidates.model';

@Resolver()
export class CandidatesResolver {
  constructor(
    private readonly candidates: CandidatesService,
    private readonly estimates: EstimateService,
  ) {}

  // heavy (up to ~60 ms of replay): at most 2 in one operation (of the 1,000 points it may cost)
  @Query(() => RulesEstimate, {
    complexity: 500,
    description:
      "How many of a policy's heaviest identifiers of the last 15 minutes would have exceeded each rule (proposed limits, or the live ones to compare): an estimate before trying them in shadow. Tenant members and operators; nothing is written.",
  })
  estimateRules(@CurrentUser() user: AuthUser, @Args('input') input: EstimateRulesInput) {
    return this.estimates.estimate(user, input);
  }

  @Mutation(() => CandidateRulesPayload, {
    description:
      "Runs proposed limits in shadow: they become the policy's candidate rules (decided beside the live ones on their own counters, never denying). A tenant's own policy: its admins; a template: operators.",
  })
  tryCandidateRules(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: TryCandidateRulesInput,
  ) {
    return this.candidates.try(user, actor, input);
  }

  @Mutation(() => CandidateRulesPayload, {
    description:
      'Makes the candidate rules live in one step: each puts its values in the rule it `replaces` (same name, counters kept where the algorithm and window stay) or is added; none remain candidates.',
  })
  applyCandidateRules(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('policyId', { type: () => ID }) policyId: string,
  ) {
    return this.candidates.apply(user, actor, policyId);
  }

  @Mutation(() => CandidateRulesPayload, {
    description: 'Removes the candidate rules in one step; the live rules stay as they are.',
  })
  discardCandidateRules(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('policyId', { type: () => ID }) policyId: string,
  ) {
    return this.candidates.discard(user, actor, policyId);
  }
}
