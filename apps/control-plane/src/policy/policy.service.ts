import { Inject, Injectable } from '@nestjs/common';
import { newId, type Prisma, type PrismaClient } from '@sluice/db';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { isOperator, type AuthUser } from '../auth/auth-user';
import { asJson } from '../database/json';
import { PRISMA } from '../database/prisma.token';
import { AppError, badUserInputOf, throwIfIssues, type FieldIssue } from '../graphql/app-error';
import { type Connection, pageQuery, toConnection } from '../graphql/pagination';
import {
  checkChangeBounds,
  overrideBoundsIssues,
  type LocatedIssue,
} from '../policy-config/compile-state';
import { changeCandidateIssues } from '../policy-config/change-candidates';
import { changeField, policyField, policyIssues } from '../policy-config/field-paths';
import {
  applyPolicyDocument,
  diffPolicyDocuments,
  parsePolicyDocument,
  serializePolicyDocument,
  toPolicyDocument,
  type DocumentDiffEntry,
  type DocumentFormat,
  type PolicyDocument,
} from '../policy-config/policy-document';
import {
  effectivePolicies,
  type PolicyRow,
  type RuleParams,
  type TenantState,
} from '../policy-config/tenant-state';
import { TenantChanges } from '../publish/tenant-changes.service';
import {
  PolicyVersionsService,
  type VersionContent,
  type VersionReason,
} from '../publish/policy-versions.service';
import { TenantStateRepository } from '../publish/tenant-state.repository';
import {
  effectivePolicyModel,
  policyModel,
  policyRowFromInput,
  type ChangePlanPolicyInput,
  type EffectivePolicy,
  type EffectivePolicyPayload,
  type Policy,
  type PolicyPayload,
  type PolicySettingsInput,
} from './models/policy.model';
import { paramsOf } from './models/rule.model';
import type {
  ImportPoliciesInput,
  PolicyChangeResult,
  PolicyVersion,
  PolicyVersionsArgs,
} from './models/version.model';

type Db = Prisma.TransactionClient;

/**
 * A tenant's own policies, its changes of its plan's templates, the effective result, and its
 * version history (export, import, rollback). Tenant admins and operators change them; viewers
 * read. Every change is validated as the whole tenant and written with its new version.
 */
@Injectable()
export class PolicyService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly tenants: TenantAccessService,
    private readonly audit: AuditService,
    private readonly states: TenantStateRepository,
    private readonly versions: PolicyVersionsService,
    private readonly changes: TenantChanges,
  ) {}

  private async state(user: AuthUser, tenantId: string): Promise<TenantState> {
    await this.tenants.tenant(user, tenantId, 'read');
    const state = await this.states.load(this.prisma, tenantId);
    if (!state) throw AppError.notFound('No such tenant.');
    return state;
  }

  async ownPolicies(user: AuthUser, tenantId: string): Promise<Policy[]> {
    const state = await this.state(user, tenantId);
    return state.ownPolicies.map((policy) => policyModel(policy, { tenantId }));
  }

  async effective(user: AuthUser, tenantId: string): Promise<EffectivePolicy[]> {
    return effectivePolicies(await this.state(user, tenantId)).map(effectivePolicyModel);
  }

  async create(
    user: AuthUser,
    actor: AuditActor,
    tenantId: string,
    input: PolicySettingsInput,
  ): Promise<PolicyPayload> {
    await this.tenants.tenant(user, tenantId, 'write');
    const row = policyRowFromInput(input, newId('policy'), false);
    throwIfIssues(policyIssues(row, 'input'));
    return this.changes.run(async (tx) => {
      const state = await this.states.lockAndLoad(tx, tenantId);
      this.assertNameFree(state, row.name, undefined);
      await this.states.putPolicy(tx, { tenantId }, row);
      await this.audit.record(tx, actor, {
        action: 'policy.create',
        entityType: 'Policy',
        entityId: row.id,
        tenantId,
        after: asJson(row),
      });
      const { version, countersReset } = await this.versions.commit(tx, tenantId, {
        actorId: actor.id,
        fieldOf: (issue) => policyField(issue, row, 'input'),
      });
      return { policy: policyModel(row, { tenantId }), version, countersReset };
    });
  }

  async update(
    user: AuthUser,
    actor: AuditActor,
    id: string,
    input: PolicySettingsInput,
  ): Promise<PolicyPayload> {
    const row = policyRowFromInput(input, id, false);
    return this.replaceOwn(user, actor, id, 'policy.update', () => row);
  }

  /**
   * Replaces one of the tenant's own policies with what `next` makes of the stored one (under
   * the tenant's lock), validated with issues named from `input`, audited as `action`.
   */
  async replaceOwn(
    user: AuthUser,
    actor: AuditActor,
    id: string,
    action: string,
    next: (before: PolicyRow) => PolicyRow,
  ): Promise<PolicyPayload & { created: boolean }> {
    const tenantId = await this.ownPolicyTenant(user, id);
    return this.changes.run(async (tx) => {
      const state = await this.states.lockAndLoad(tx, tenantId);
      const before = state.ownPolicies.find((policy) => policy.id === id);
      if (!before) throw AppError.notFound('No such policy.');
      const row = next(before);
      throwIfIssues(policyIssues(row, 'input'));
      this.assertNameFree(state, row.name, id);
      await this.states.putPolicy(tx, { tenantId }, row);
      await this.audit.record(tx, actor, {
        action,
        entityType: 'Policy',
        entityId: id,
        tenantId,
        before: asJson(before),
        after: asJson(row),
      });
      const { version, created, countersReset } = await this.versions.commit(tx, tenantId, {
        actorId: actor.id,
        fieldOf: (issue) => policyField(issue, row, 'input'),
      });
      return { policy: policyModel(row, { tenantId }), version, created, countersReset };
    });
  }

  async delete(user: AuthUser, actor: AuditActor, id: string): Promise<PolicyPayload> {
    const tenantId = await this.ownPolicyTenant(user, id);
    return this.changes.run(async (tx) => {
      const state = await this.states.lockAndLoad(tx, tenantId);
      const before = state.ownPolicies.find((policy) => policy.id === id);
      if (!before) throw AppError.notFound('No such policy.');
      // its overrides go with it (cascade)
      await tx.policy.delete({ where: { id } });
      await this.audit.record(tx, actor, {
        action: 'policy.delete',
        entityType: 'Policy',
        entityId: id,
        tenantId,
        before: asJson(before),
      });
      const { version, countersReset } = await this.versions.commit(tx, tenantId, {
        actorId: actor.id,
      });
      return { policy: null, version, countersReset };
    });
  }

  async changePlanPolicy(
    user: AuthUser,
    actor: AuditActor,
    input: ChangePlanPolicyInput,
  ): Promise<EffectivePolicyPayload> {
    await this.tenants.tenant(user, input.tenantId, 'write');
    const order = input.rules.map((rule) => rule.name);
    const rules: Record<string, RuleParams> = {};
    const issues: FieldIssue[] = [];
    input.rules.forEach((rule, i) => {
      if (rule.name in rules)
        issues.push({ field: `input.rules.${i}.name`, message: 'is a duplicate' });
      rules[rule.name] = paramsOf(rule);
    });
    throwIfIssues(issues);
    const fieldOf = (rule: string, param?: string) =>
      ['input.rules', order.indexOf(rule), param].filter((p) => p !== undefined).join('.');
    return this.changes.run(async (tx) => {
      const state = await this.states.lockAndLoad(tx, input.tenantId);
      const base = state.planPolicies.find((policy) => policy.name === input.policy);
      if (!base) {
        throw AppError.badUserInput([
          { field: 'input.policy', message: `the plan has no policy named ${input.policy}` },
        ]);
      }
      throwIfIssues(
        checkChangeBounds(state, base.id, rules, (rule, param) =>
          rule === '' ? 'input.policy' : fieldOf(rule, param),
        ),
      );
      const existing = state.changes.find((change) => change.basePolicyId === base.id);
      const meaningful = Object.fromEntries(
        Object.entries(rules).filter(([, params]) => Object.keys(params).length > 0),
      );
      // the tenant's candidates for the policy, if any, stay as they are
      await this.states.putOrDropChange(tx, input.tenantId, base, {
        id: existing?.id ?? newId('policy'),
        basePolicyId: base.id,
        rules: meaningful,
        candidates: existing?.candidates ?? [],
      });
      await this.audit.record(tx, actor, {
        action: 'policy_change.put',
        entityType: 'Policy',
        entityId: existing?.id ?? base.id,
        tenantId: input.tenantId,
        before: (existing?.rules ?? {}) as Prisma.InputJsonObject,
        after: meaningful as Prisma.InputJsonObject,
      });
      const { version, countersReset } = await this.versions.commit(tx, input.tenantId, {
        actorId: actor.id,
        fieldOf: (issue: LocatedIssue) => changeField(issue, base.id, order, 'input.rules'),
      });
      const after = await this.states.load(tx, input.tenantId);
      const policy = after && effectivePolicies(after).find((p) => p.id === base.id);
      if (!policy) throw new Error(`policy ${base.id} vanished`);
      return { policy: effectivePolicyModel(policy), version, countersReset };
    });
  }

  async versionList(user: AuthUser, args: PolicyVersionsArgs): Promise<Connection<PolicyVersion>> {
    await this.tenants.tenant(user, args.tenantId, 'read');
    const query = pageQuery(args);
    const after = query.after === undefined ? undefined : Number(query.after);
    if (after !== undefined && !Number.isSafeInteger(after)) {
      throw AppError.badUserInput([{ field: 'after', message: 'is not a cursor of this list' }]);
    }
    const where = { tenantId: args.tenantId };
    const [rows, total] = await Promise.all([
      this.prisma.policyVersion.findMany({
        where: { ...where, ...(after !== undefined && { version: { lt: after } }) },
        orderBy: { version: 'desc' },
        take: query.take,
        select: {
          version: true,
          reason: true,
          rolledBackFrom: true,
          createdById: true,
          createdAt: true,
        },
      }),
      this.prisma.policyVersion.count({ where }),
    ]);
    return toConnection(
      rows.map((row) => ({ ...row, reason: row.reason as VersionReason })),
      query,
      total,
      (row) => String(row.version),
    );
  }

  /** The tenant's own configuration (or that of `version`) as a document. */
  async export(
    user: AuthUser,
    tenantId: string,
    format: DocumentFormat,
    version: number | null | undefined,
  ): Promise<string> {
    const state = await this.state(user, tenantId);
    if (version === null || version === undefined) {
      return serializePolicyDocument(toPolicyDocument(state), format);
    }
    return serializePolicyDocument(await this.versionDocument(tenantId, version), format);
  }

  async import(
    user: AuthUser,
    actor: AuditActor,
    input: ImportPoliciesInput,
  ): Promise<PolicyChangeResult> {
    await this.tenants.tenant(user, input.tenantId, input.dryRun ? 'read' : 'write');
    const parsed = parsePolicyDocument(input.document, input.format ?? 'yaml');
    if ('issues' in parsed) {
      throw badUserInputOf(parsed.issues, { field: 'document', message: 'invalid' });
    }
    return this.replace(user, actor, input.tenantId, parsed.document, {
      reason: 'import',
      dryRun: input.dryRun ?? false,
    });
  }

  async rollback(
    user: AuthUser,
    actor: AuditActor,
    tenantId: string,
    version: number,
  ): Promise<PolicyChangeResult> {
    await this.tenants.tenant(user, tenantId, 'write');
    const document = await this.versionDocument(tenantId, version);
    return this.replace(user, actor, tenantId, document, {
      reason: 'rollback',
      rolledBackFrom: version,
      dryRun: false,
    });
  }

  private async versionDocument(tenantId: string, version: number): Promise<PolicyDocument> {
    const row = await this.prisma.policyVersion.findUnique({
      where: { tenantId_version: { tenantId, version } },
      select: { content: true },
    });
    if (!row) throw AppError.notFound(`The tenant has no version ${version}.`);
    return (row.content as unknown as VersionContent).document;
  }

  /**
   * Makes the tenant's own configuration that of `document` (import, rollback): validated as a
   * whole with issues named in the document, then written with a new version, or (dry run) only
   * compared.
   */
  private async replace(
    user: AuthUser,
    actor: AuditActor,
    tenantId: string,
    document: PolicyDocument,
    options: { reason: 'import' | 'rollback'; rolledBackFrom?: number; dryRun: boolean },
  ): Promise<PolicyChangeResult> {
    const attempt = async (tx: Db) => {
      // a dry run reads (no lock, no write); an import or rollback holds the tenant until commit
      const before = options.dryRun
        ? await this.states.load(tx, tenantId)
        : await this.states.lockAndLoad(tx, tenantId);
      if (!before) throw AppError.notFound('No such tenant.');
      const applied = applyPolicyDocument(before, document);
      if ('issues' in applied) {
        throw badUserInputOf(applied.issues, { field: 'document', message: 'invalid' });
      }
      const after = applied.state;
      const issues: FieldIssue[] = [];
      after.ownPolicies.forEach((policy, i) =>
        issues.push(...policyIssues(policy, `document.policies.${i}`)),
      );
      after.changes.forEach((change) => {
        const index = document.changes.findIndex(
          (c) => c.policy === after.planPolicies.find((p) => p.id === change.basePolicyId)?.name,
        );
        issues.push(
          ...checkChangeBounds(after, change.basePolicyId, change.rules, (rule, param) =>
            [`document.changes.${index}.rules`, rule, param].filter(Boolean).join('.'),
          ),
        );
        const base = after.planPolicies.find((p) => p.id === change.basePolicyId);
        if (base) {
          const at = `document.changes.${index}.candidateRules`;
          issues.push(...changeCandidateIssues(base, change.candidates, at));
        }
      });
      // operators may set overrides beyond the plan's bounds; tenant admins may not
      if (!isOperator(user)) {
        issues.push(
          ...overrideBoundsIssues(before, after, (index, rule, param) =>
            [`document.overrides.${index}.rules`, rule, param].filter(Boolean).join('.'),
          ),
        );
      }
      throwIfIssues(issues);
      const changes = diffPolicyDocuments(toPolicyDocument(before), document).map(toDiffModel);
      const fieldOf = (issue: LocatedIssue) => documentField(issue, after, document);
      if (options.dryRun) {
        // validates the whole tenant as a commit would, writing nothing
        const countersReset = await this.versions.preview(tx, after, fieldOf);
        return { dryRun: true, changes, version: null, countersReset };
      }
      await this.states.replaceTenantLayer(tx, before, after);
      await this.audit.record(tx, actor, {
        action: options.reason === 'import' ? 'policies.import' : 'policies.rollback',
        entityType: 'Tenant',
        entityId: tenantId,
        tenantId,
        before: asJson(toPolicyDocument(before)),
        after: asJson({
          ...document,
          ...(options.rolledBackFrom && { from: options.rolledBackFrom }),
        }),
      });
      const { version, countersReset } = await this.versions.commit(tx, tenantId, {
        reason: options.reason,
        ...(options.rolledBackFrom !== undefined && { rolledBackFrom: options.rolledBackFrom }),
        actorId: actor.id,
        fieldOf,
      });
      return { dryRun: false, changes, version, countersReset };
    };
    if (options.dryRun) return attempt(this.prisma);
    return this.changes.run(attempt);
  }

  private assertNameFree(state: TenantState, name: string, exceptId: string | undefined): void {
    if (state.planPolicies.some((policy) => policy.name === name)) {
      throw AppError.conflict(
        `The plan has a policy named ${name}: change its values with changePlanPolicy, or choose another name.`,
        'input.name',
      );
    }
    if (state.ownPolicies.some((policy) => policy.name === name && policy.id !== exceptId)) {
      throw AppError.conflict(`The tenant has a policy named ${name}.`, 'input.name');
    }
  }

  /** The tenant of one of its own policies, checked for writing. */
  private async ownPolicyTenant(user: AuthUser, id: string): Promise<string> {
    const policy = await this.prisma.policy.findFirst({
      where: { id, basePolicyId: null, tenant: { deletedAt: null } },
      select: { tenantId: true },
    });
    this.tenants.check(user, policy?.tenantId ?? undefined, 'write', 'No such policy.');
    return policy?.tenantId ?? '';
  }
}

function toDiffModel(entry: DocumentDiffEntry) {
  return {
    path: entry.path,
    kind: entry.kind,
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
  };
}

/** Where a complaint about the tenant a document makes lies in that document. */
function documentField(
  issue: LocatedIssue,
  state: TenantState,
  document: PolicyDocument,
): string | undefined {
  if (issue.overrideId !== undefined) {
    const index = state.overrides.findIndex((o) => o.id === issue.overrideId);
    return index === -1 ? undefined : ['document.overrides', index, ...issue.rest].join('.');
  }
  const own = state.ownPolicies.findIndex((p) => p.id === issue.policyId);
  const policy = state.ownPolicies[own];
  if (policy) return policyField(issue, policy, `document.policies.${own}`);
  const base = state.planPolicies.find((p) => p.id === issue.policyId);
  const change = base && document.changes.findIndex((c) => c.policy === base.name);
  if (change !== undefined && change !== -1 && issue.rule !== undefined) {
    const candidates = document.changes[change]?.candidateRules ?? [];
    const candidate = candidates.findIndex((c) => c.name === issue.rule);
    if (issue.candidate && candidate !== -1) {
      return [`document.changes.${change}.candidateRules`, candidate, ...issue.rest].join('.');
    }
    return [`document.changes.${change}.rules`, issue.rule, ...issue.rest].join('.');
  }
  return undefined;
}
