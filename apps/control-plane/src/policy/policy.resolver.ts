import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import type { DocumentFormat } from '../policy-config/policy-document';
import {
  ChangePlanPolicyInput,
  EffectivePolicy,
  EffectivePolicyPayload,
  Policy,
  PolicyPayload,
  PolicySettingsInput,
} from './models/policy.model';
import {
  DocumentFormatEnum,
  ImportPoliciesInput,
  PolicyChangeResult,
  PolicyVersionConnection,
  PolicyVersionsArgs,
} from './models/version.model';
import { PolicyService } from './policy.service';

@Resolver()
export class PolicyResolver {
  constructor(private readonly policies: PolicyService) {}

  @Query(() => [Policy], { description: "The tenant's own policies (not its plan's)." })
  tenantPolicies(
    @CurrentUser() user: AuthUser,
    @Args('tenantId', { type: () => ID }) tenantId: string,
  ) {
    return this.policies.ownPolicies(user, tenantId);
  }

  @Query(() => [EffectivePolicy], {
    description:
      "Every policy the tenant's checks use: its plan's templates with its changes, then its own, each value saying where it came from, with the overrides.",
  })
  effectivePolicies(
    @CurrentUser() user: AuthUser,
    @Args('tenantId', { type: () => ID }) tenantId: string,
  ) {
    return this.policies.effective(user, tenantId);
  }

  @Mutation(() => PolicyPayload, { description: 'Adds a policy of the tenant’s own.' })
  createPolicy(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('input') input: PolicySettingsInput,
  ) {
    return this.policies.create(user, actor, tenantId, input);
  }

  @Mutation(() => PolicyPayload, {
    description:
      'Replaces one of the tenant’s own policies (renaming a rule restarts its counter).',
  })
  updatePolicy(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: PolicySettingsInput,
  ) {
    return this.policies.update(user, actor, id, input);
  }

  @Mutation(() => PolicyPayload, { description: 'Deletes one of the tenant’s own policies.' })
  deletePolicy(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
  ) {
    return this.policies.delete(user, actor, id);
  }

  @Mutation(() => EffectivePolicyPayload, {
    description:
      "Sets the tenant's values of parameters its plan lets it change (within the plan's bounds).",
  })
  changePlanPolicy(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: ChangePlanPolicyInput,
  ) {
    return this.policies.changePlanPolicy(user, actor, input);
  }

  @Query(() => PolicyVersionConnection, { description: 'Newest first.' })
  policyVersions(@CurrentUser() user: AuthUser, @Args() args: PolicyVersionsArgs) {
    return this.policies.versionList(user, args);
  }

  @Query(() => String, {
    description:
      "The tenant's own configuration (its policies, its changes of its plan's, its overrides) as a document for git; of `version` when given.",
  })
  exportPolicies(
    @CurrentUser() user: AuthUser,
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('format', { type: () => DocumentFormatEnum, nullable: true }) format?: DocumentFormat,
    @Args('version', { type: () => Int, nullable: true }) version?: number,
  ) {
    return this.policies.export(user, tenantId, format ?? 'yaml', version);
  }

  @Mutation(() => PolicyChangeResult, {
    description:
      "Makes the tenant's own configuration that of the document (validated; dryRun shows the differences only).",
  })
  importPolicies(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: ImportPoliciesInput,
  ) {
    return this.policies.import(user, actor, input);
  }

  @Mutation(() => PolicyChangeResult, {
    description:
      "Restores the tenant's own configuration of an earlier version, published as a new, higher version.",
  })
  rollbackPolicies(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('version', { type: () => Int }) version: number,
  ) {
    return this.policies.rollback(user, actor, tenantId, version);
  }
}
