import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import { TenantAccessService } from '../access/tenant-access.service';
import type { AuditActor } from '../audit/audit.service';
import { isOperator, type AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { AppError } from '../graphql/app-error';
import { PlanService } from '../plan/plan.service';
import { applyCandidates, withCandidates } from '../policy-config/candidates';
import type { PolicyRow } from '../policy-config/tenant-state';
import { toRuleRow } from '../policy/models/rule.model';
import { PolicyService } from '../policy/policy.service';
import type { CandidateRulesPayload, TryCandidateRulesInput } from './models/candidates.model';

/**
 * Try in shadow: propose new limits as a policy's candidate rules, then apply or discard them,
 * each in one step and one new version. A tenant's own policy is its admins' (and operators');
 * a plan's template is the operators', and reaches every tenant on the plan.
 */
@Injectable()
export class CandidatesService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly tenants: TenantAccessService,
    private readonly policies: PolicyService,
    private readonly plans: PlanService,
  ) {}

  try(user: AuthUser, actor: AuditActor, input: TryCandidateRulesInput) {
    const candidates = input.candidateRules.map((rule) => toRuleRow(rule, true, false));
    return this.change(user, actor, input.policyId, 'candidates_try', (policy) =>
      withCandidates(policy, candidates),
    );
  }

  apply(user: AuthUser, actor: AuditActor, policyId: string) {
    return this.change(user, actor, policyId, 'candidates_apply', (policy) => {
      if (!policy.rules.some((rule) => rule.candidate)) {
        throw AppError.badUserInput([
          { field: 'policyId', message: `${policy.name} has no candidate rules to apply` },
        ]);
      }
      return applyCandidates(policy);
    });
  }

  discard(user: AuthUser, actor: AuditActor, policyId: string) {
    return this.change(user, actor, policyId, 'candidates_discard', (policy) =>
      withCandidates(policy, []),
    );
  }

  private async change(
    user: AuthUser,
    actor: AuditActor,
    policyId: string,
    action: string,
    next: (policy: PolicyRow) => PolicyRow,
  ): Promise<CandidateRulesPayload> {
    const owner = await this.prisma.policy.findFirst({
      where: { id: policyId, basePolicyId: null },
      select: { planId: true, tenantId: true },
    });
    if (owner?.planId) {
      if (!isOperator(user)) {
        throw AppError.forbidden(
          "A plan's policies are the operators': try the values your plan opens to you with tryPlanPolicyCandidates instead.",
        );
      }
      const changed = await this.plans.replaceTemplate(
        actor,
        policyId,
        `plan_policy.${action}`,
        next,
      );
      if (!changed.policy) throw new Error(`template ${policyId} vanished`);
      return { ...changed, policy: changed.policy };
    }
    // a tenant's own policy (the service answers NOT_FOUND for anything else)
    const changed = await this.policies.replaceOwn(user, actor, policyId, `policy.${action}`, next);
    if (!changed.policy) throw new Error(`policy ${policyId} vanished`);
    return {
      policy: changed.policy,
      tenantsRepublished: changed.created ? 1 : 0,
      tenantsTrimmed: 0,
      countersReset: changed.countersReset,
    };
  }
}
