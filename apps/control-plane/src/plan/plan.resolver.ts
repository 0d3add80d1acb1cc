import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import { type AuthUser, isOperator } from '../auth/auth-user';
import { CurrentUser, RequestActor, Roles } from '../auth/decorators';
import { Policy, PolicySettingsInput } from '../policy/models/policy.model';
import {
  CreatePlanInput,
  Plan,
  PlanConnection,
  PlanPolicyPayload,
  PlansArgs,
  UpdatePlanInput,
} from './models/plan.model';
import { PlanService } from './plan.service';

@Resolver(() => Plan)
export class PlanResolver {
  constructor(private readonly service: PlanService) {}

  @Query(() => PlanConnection, {
    description: "Operators: every plan. Tenant members: their tenants' plans.",
  })
  plans(@CurrentUser() user: AuthUser, @Args() args: PlansArgs) {
    return this.service.list(user, args);
  }

  @Query(() => Plan)
  plan(@CurrentUser() user: AuthUser, @Args('id', { type: () => ID }) id: string) {
    return this.service.get(user, id);
  }

  @ResolveField(() => [Policy], { description: 'Its policy templates.' })
  policies(@Parent() plan: Plan) {
    return this.service.policies(plan.id);
  }

  @ResolveField(() => Int, {
    description:
      "The cap that applies under this plan: most units per window of a sliding_window_log rule (the plan's, else the platform's). Use sliding_window_counter beyond it.",
  })
  slidingLogLimitCap(@Parent() plan: Plan) {
    return this.service.logCapOf(plan);
  }

  // field resolvers run no guards: the check is here
  @ResolveField(() => Int, {
    nullable: true,
    description: 'Tenants on the plan (null unless the caller is an operator).',
  })
  tenantCount(@Parent() plan: Plan, @CurrentUser() user: AuthUser) {
    return isOperator(user) ? this.service.tenantCount(plan.id) : null;
  }

  @Roles('operator')
  @Mutation(() => Plan)
  createPlan(@RequestActor() actor: AuditActor, @Args('input') input: CreatePlanInput) {
    return this.service.create(actor, input);
  }

  @Roles('operator')
  @Mutation(() => Plan)
  updatePlan(
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdatePlanInput,
  ) {
    return this.service.update(actor, id, input);
  }

  @Roles('operator')
  @Mutation(() => Boolean, { description: 'Refused (CONFLICT) while tenants are on the plan.' })
  deletePlan(@RequestActor() actor: AuditActor, @Args('id', { type: () => ID }) id: string) {
    return this.service.delete(actor, id);
  }

  @Roles('operator')
  @Mutation(() => PlanPolicyPayload, {
    description: 'Adds a template; every tenant on the plan gets it (a new version each).',
  })
  createPlanPolicy(
    @RequestActor() actor: AuditActor,
    @Args('planId', { type: () => ID }) planId: string,
    @Args('input') input: PolicySettingsInput,
  ) {
    return this.service.createPolicy(actor, planId, input);
  }

  @Roles('operator')
  @Mutation(() => PlanPolicyPayload, {
    description:
      "Replaces a template; tenants' changes outside its new bounds, and overrides of rules that are gone, are trimmed.",
  })
  updatePlanPolicy(
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: PolicySettingsInput,
  ) {
    return this.service.updatePolicy(actor, id, input);
  }

  @Roles('operator')
  @Mutation(() => PlanPolicyPayload, {
    description: "Removes a template with the tenants' changes and overrides of it.",
  })
  deletePlanPolicy(@RequestActor() actor: AuditActor, @Args('id', { type: () => ID }) id: string) {
    return this.service.deletePolicy(actor, id);
  }
}
