import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { TenantStatus } from '@sluice/policy';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor, Roles } from '../auth/decorators';
import { Plan } from '../plan/models/plan.model';
import { PlanService } from '../plan/plan.service';
import {
  CreateTenantInput,
  Publication,
  Tenant,
  TenantConnection,
  TenantsArgs,
  TenantStatusEnum,
  UpdateTenantInput,
} from './models/tenant.model';
import { TenantService } from './tenant.service';

@Resolver(() => Tenant)
export class TenantResolver {
  constructor(
    private readonly service: TenantService,
    private readonly plans: PlanService,
  ) {}

  @Query(() => TenantConnection, {
    description: 'Operators: every tenant. Tenant members: their own.',
  })
  tenants(@CurrentUser() user: AuthUser, @Args() args: TenantsArgs) {
    return this.service.list(user, args);
  }

  @Query(() => Tenant)
  tenant(@CurrentUser() user: AuthUser, @Args('id', { type: () => ID }) id: string) {
    return this.service.get(user, id);
  }

  @ResolveField(() => Plan)
  plan(@Parent() tenant: Tenant, @CurrentUser() user: AuthUser) {
    return this.plans.get(user, tenant.planId);
  }

  @ResolveField(() => Publication)
  publication(@Parent() tenant: Tenant) {
    return this.service.publication(tenant.id);
  }

  @Roles('operator')
  @Mutation(() => Tenant, {
    description: "Creates a tenant on a plan; its policies are the plan's.",
  })
  createTenant(@RequestActor() actor: AuditActor, @Args('input') input: CreateTenantInput) {
    return this.service.create(actor, input);
  }

  @Mutation(() => Tenant)
  updateTenant(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateTenantInput,
  ) {
    return this.service.update(user, actor, id, input);
  }

  @Roles('operator')
  @Mutation(() => Tenant, {
    description: "SUSPENDED denies every check of the tenant's keys; ACTIVE lifts that.",
  })
  setTenantStatus(
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('status', { type: () => TenantStatusEnum }) status: TenantStatus,
  ) {
    return this.service.setStatus(actor, id, status);
  }

  @Roles('operator')
  @Mutation(() => Boolean, {
    description:
      'Deletes a tenant: gone from the API at once; its policies, keys and counters leave Redis in the background. The audit log stays.',
  })
  deleteTenant(@RequestActor() actor: AuditActor, @Args('id', { type: () => ID }) id: string) {
    return this.service.delete(actor, id);
  }
}
