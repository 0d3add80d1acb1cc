import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import { CandidatesService } from './candidates.service';
import { EstimateService } from './estimate.service';
import { EstimateRulesInput, RulesEstimate } from './models/estimate.model';
import { EffectivePolicyPayload } from '../policy/models/policy.model';
import {
  CandidateRulesPayload,
  TryCandidateRulesInput,
  TryPlanPolicyCandidatesInput,
} from './models/candidates.model';
import { PlanPolicyCandidatesService } from './plan-policy-candidates.service';

@Resolver()
export class CandidatesResolver {
  constructor(
    private readonly candidates: CandidatesService,
    private readonly estimates: EstimateService,
    private readonly planPolicyCandidates: PlanPolicyCandidatesService,
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

  @Mutation(() => EffectivePolicyPayload, {
    description:
      "Runs a tenant's proposed values for one of its plan's policies in shadow, for this tenant only: they become the tenant's candidates for the policy (see TryPlanPolicyCandidatesInput). Tenant admins and operators.",
  })
  tryPlanPolicyCandidates(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: TryPlanPolicyCandidatesInput,
  ) {
    return this.planPolicyCandidates.try(user, actor, input);
  }

  @Mutation(() => EffectivePolicyPayload, {
    description:
      "Makes the tenant's candidates for a plan policy its values of the rules they replace (as changePlanPolicy would), in one step; none remain candidates.",
  })
  applyPlanPolicyCandidates(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('policy', { description: "The name of one of the tenant's plan's policies." })
    policy: string,
  ) {
    return this.planPolicyCandidates.apply(user, actor, tenantId, policy);
  }

  @Mutation(() => EffectivePolicyPayload, {
    description: "Removes the tenant's candidates for a plan policy; its values stay as they are.",
  })
  discardPlanPolicyCandidates(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('policy', { description: "The name of one of the tenant's plan's policies." })
    policy: string,
  ) {
    return this.planPolicyCandidates.discard(user, actor, tenantId, policy);
  }
}
