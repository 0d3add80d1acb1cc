import { Injectable } from '@nestjs/common';
import { newId, type Prisma } from '@sluice/db';
import { TenantAccessService } from '../access/tenant-access.service';
import { AuditService, type AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { asJson } from '../database/json';
import { AppError, throwIfIssues } from '../graphql/app-error';
import {
  applyChangeCandidates,
  candidatePatch,
  changeCandidateIssues,
} from '../policy-config/change-candidates';
import type { LocatedIssue } from '../policy-config/compile-state';
import { changeField } from '../policy-config/field-paths';
import { effectivePolicies, type ChangeRow, type PolicyRow } from '../policy-config/tenant-state';
import { effectivePolicyModel, type EffectivePolicyPayload } from '../policy/models/policy.model';
import { toRuleRow } from '../policy/models/rule.model';
import { PolicyVersionsService } from '../publish/policy-versions.service';
import { TenantChanges } from '../publish/tenant-changes.service';
import { TenantStateRepository } from '../publish/tenant-state.repository';
import type { TryPlanPolicyCandidatesInput } from './models/candidates.model';

type Db = Prisma.TransactionClient;

const CANDIDATES = 'input.candidateRules';

/**
 * Try in shadow as a tenant's change of one of its plan's policies: the tenant's candidates are
 * decided beside the template's rules for this tenant only, then applied (they become the
 * tenant's values of the rules they replace) or discarded, each in one step and one new version.
 * Tenant admins and operators; the template itself stays the operators' (`tryCandidateRules`).
 */
@Injectable()
export class PlanPolicyCandidatesService {
  constructor(
    private readonly tenants: TenantAccessService,
    private readonly audit: AuditService,
    private readonly states: TenantStateRepository,
    private readonly versions: PolicyVersionsService,
    private readonly changes: TenantChanges,
  ) {}

  try(
    user: AuthUser,
    actor: AuditActor,
    input: TryPlanPolicyCandidatesInput,
  ): Promise<EffectivePolicyPayload> {
    const proposed = input.candidateRules.map((rule) => toRuleRow(rule, true, false));
    return this.change(user, actor, input.tenantId, input.policy, 'try', (base, change) => {
      const candidates = proposed.map((candidate) => candidatePatch(base, candidate));
      throwIfIssues(changeCandidateIssues(base, candidates, CANDIDATES));
      return { ...change, candidates };
    });
  }

  apply(
    user: AuthUser,
    actor: AuditActor,
    tenantId: string,
    policy: string,
  ): Promise<EffectivePolicyPayload> {
    return this.change(user, actor, tenantId, policy, 'apply', (base, change) => {
      if (change.candidates.length === 0) {
        throw AppError.badUserInput([
          { field: 'policy', message: `the tenant has no candidate rules for ${base.name}` },
        ]);
      }
      return applyChangeCandidates(change);
    });
  }

  discard(
    user: AuthUser,
    actor: AuditActor,
    tenantId: string,
    policy: string,
  ): Promise<EffectivePolicyPayload> {
    return this.change(user, actor, tenantId, policy, 'discard', (_base, change) => ({
      ...change,
      candidates: [],
    }));
  }

  private async change(
    user: AuthUser,
    actor: AuditActor,
    tenantId: string,
    policyName: string,
    action: 'try' | 'apply' | 'discard',
    next: (base: PolicyRow, change: ChangeRow) => ChangeRow,
  ): Promise<EffectivePolicyPayload> {
    await this.tenants.tenant(user, tenantId, 'write');
    return this.changes.run(async (tx: Db) => {
      const state = await this.states.lockAndLoad(tx, tenantId);
      const base = state.planPolicies.find((policy) => policy.name === policyName);
      if (!base) {
        const field = action === 'try' ? 'input.policy' : 'policy';
        throw AppError.badUserInput([
          { field, message: `the plan has no policy named ${policyName}` },
        ]);
      }
      const existing = state.changes.find((change) => change.basePolicyId === base.id);
      const before = existing ?? {
        id: newId('policy'),
        basePolicyId: base.id,
        rules: {},
        candidates: [],
      };
      const after = next(base, before);
      await this.states.putOrDropChange(tx, tenantId, base, after);
      await this.audit.record(tx, actor, {
        action: `policy_change.candidates_${action}`,
        entityType: 'Policy',
        entityId: existing?.id ?? base.id,
        tenantId,
        before: asJson({ rules: before.rules, candidateRules: before.candidates }),
        after: asJson({ rules: after.rules, candidateRules: after.candidates }),
      });
      const names = after.candidates.map((candidate) => candidate.name);
      const { version, countersReset } = await this.versions.commit(tx, tenantId, {
        actorId: actor.id,
        fieldOf: (issue: LocatedIssue) =>
          issue.candidate ? changeField(issue, base.id, names, CANDIDATES) : undefined,
      });
      const changed = await this.states.load(tx, tenantId);
      const policy = changed && effectivePolicies(changed).find((p) => p.id === base.id);
      if (!policy) throw new Error(`policy ${base.id} vanished`);
      return { policy: effectivePolicyModel(policy), version, countersReset };
    });
  }
}
