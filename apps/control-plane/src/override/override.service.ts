import { Inject, Injectable } from '@nestjs/common';
import { newId, type Prisma, type PrismaClient } from '@sluice/db';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { isOperator, type AuthUser } from '../auth/auth-user';
import { asJson } from '../database/json';
import { PRISMA } from '../database/prisma.token';
import { AppError, throwIfIssues, type FieldIssue } from '../graphql/app-error';
import { type Connection, pageQuery, toConnection } from '../graphql/pagination';
import { checkChangeBounds } from '../policy-config/compile-state';
import { overrideField } from '../policy-config/field-paths';
import type { OverrideRow, RuleParams, TenantState } from '../policy-config/tenant-state';
import { overrideModel, type Override } from '../policy/models/policy.model';
import { paramsOf, type RuleChangeInput } from '../policy/models/rule.model';
import { TenantChanges } from '../publish/tenant-changes.service';
import { PolicyVersionsService } from '../publish/policy-versions.service';
import { TenantStateRepository } from '../publish/tenant-state.repository';
import type {
  CreateOverrideInput,
  OverridePayload,
  OverridesArgs,
  UpdateOverrideInput,
} from './models/override.model';

type Db = Prisma.TransactionClient;

const MAX_REASON = 500;

function rulesOf(
  rules: readonly RuleChangeInput[],
  issues: FieldIssue[],
): Record<string, RuleParams> {
  const out: Record<string, RuleParams> = {};
  rules.forEach((rule, i) => {
    if (rule.name in out)
      issues.push({ field: `input.rules.${i}.name`, message: 'is a duplicate' });
    const params = paramsOf(rule);
    if (Object.keys(params).length === 0) {
      issues.push({ field: `input.rules.${i}`, message: 'must set at least one parameter' });
    }
    out[rule.name] = params;
  });
  if (rules.length === 0) issues.push({ field: 'input.rules', message: 'must change a rule' });
  return out;
}

/**
 * Per-identifier exceptions to a tenant's policy (exact, or by prefix), with an expiry and a
 * reason; validated with the policy they change and published with a new version.
 */
@Injectable()
export class OverrideService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly tenants: TenantAccessService,
    private readonly audit: AuditService,
    private readonly states: TenantStateRepository,
    private readonly versions: PolicyVersionsService,
    private readonly changes: TenantChanges,
  ) {}

  async list(user: AuthUser, args: OverridesArgs): Promise<Connection<Override>> {
    await this.tenants.tenant(user, args.tenantId, 'read');
    const query = pageQuery(args);
    const search = args.search?.trim();
    const where: Prisma.OverrideWhereInput = {
      tenantId: args.tenantId,
      ...(args.policy && { policy: { name: args.policy } }),
      ...(search && { identifier: { contains: search } }),
      ...(args.includeExpired === false && {
        OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
      }),
    };
    const [rows, total] = await Promise.all([
      this.prisma.override.findMany({
        where,
        include: { policy: { select: { name: true } } },
        orderBy: { id: 'asc' },
        take: query.take,
        ...(query.after && { cursor: { id: query.after }, skip: 1 }),
      }),
      this.prisma.override.count({ where }),
    ]);
    const models = rows.map((row) =>
      overrideModel(
        {
          ...row,
          rules: row.rules as Record<string, RuleParams>,
        },
        row.policy.name,
      ),
    );
    return toConnection(models, query, total, (row) => row.id);
  }

  async create(
    user: AuthUser,
    actor: AuditActor,
    input: CreateOverrideInput,
  ): Promise<OverridePayload> {
    await this.tenants.tenant(user, input.tenantId, 'write');
    const issues: FieldIssue[] = [];
    const rules = rulesOf(input.rules, issues);
    const reason = (input.reason ?? '').trim();
    if (reason.length > MAX_REASON) {
      issues.push({ field: 'input.reason', message: `must be at most ${MAX_REASON} characters` });
    }
    if (input.expiresAt && +input.expiresAt <= Date.now()) {
      issues.push({ field: 'input.expiresAt', message: 'must be in the future' });
    }
    throwIfIssues(issues);
    const match = input.identifier.endsWith('*') ? 'prefix' : 'exact';
    const identifier = match === 'prefix' ? input.identifier.slice(0, -1) : input.identifier;
    return this.changes.run(async (tx) => {
      const state = await this.states.lockAndLoad(tx, input.tenantId);
      const policy = this.policyNamed(state, input.policy);
      if (
        state.overrides.some(
          (o) => o.policyId === policy.id && o.match === match && o.identifier === identifier,
        )
      ) {
        throw AppError.conflict(
          `An override of ${input.policy} for ${input.identifier} exists: update it instead.`,
          'input.identifier',
        );
      }
      this.checkPlanBounds(user, state, policy.id, rules, input.rules);
      const row: OverrideRow = {
        id: newId('override'),
        policyId: policy.id,
        match,
        identifier,
        rules,
        reason,
        expiresAt: input.expiresAt ?? null,
      };
      await this.states.putOverride(tx, input.tenantId, row);
      return this.finish(tx, actor, input.tenantId, policy.name, undefined, row, input.rules);
    });
  }

  async update(
    user: AuthUser,
    actor: AuditActor,
    id: string,
    input: UpdateOverrideInput,
  ): Promise<OverridePayload> {
    const tenantId = await this.tenantOf(user, id);
    const issues: FieldIssue[] = [];
    const rules = input.rules ? rulesOf(input.rules, issues) : undefined;
    if (input.reason && input.reason.trim().length > MAX_REASON) {
      issues.push({ field: 'input.reason', message: `must be at most ${MAX_REASON} characters` });
    }
    if (input.expiresAt && input.clearExpiry) {
      issues.push({ field: 'input.clearExpiry', message: 'cannot be set with expiresAt' });
    }
    throwIfIssues(issues);
    return this.changes.run(async (tx) => {
      const state = await this.states.lockAndLoad(tx, tenantId);
      const before = state.overrides.find((o) => o.id === id);
      if (!before) throw AppError.notFound('No such override.');
      if (rules && input.rules)
        this.checkPlanBounds(user, state, before.policyId, rules, input.rules);
      const after: OverrideRow = {
        ...before,
        ...(rules && { rules }),
        ...(input.reason !== null && input.reason !== undefined && { reason: input.reason.trim() }),
        ...(input.expiresAt && { expiresAt: input.expiresAt }),
        ...(input.clearExpiry && { expiresAt: null }),
      };
      await this.states.putOverride(tx, tenantId, after);
      const policy = [...state.planPolicies, ...state.ownPolicies].find(
        (p) => p.id === before.policyId,
      );
      return this.finish(tx, actor, tenantId, policy?.name ?? '', before, after, input.rules);
    });
  }

  async delete(user: AuthUser, actor: AuditActor, id: string): Promise<OverridePayload> {
    const tenantId = await this.tenantOf(user, id);
    return this.changes.run(async (tx) => {
      const state = await this.states.lockAndLoad(tx, tenantId);
      const before = state.overrides.find((o) => o.id === id);
      if (!before) throw AppError.notFound('No such override.');
      await tx.override.delete({ where: { id } });
      await this.audit.record(tx, actor, {
        action: 'override.delete',
        entityType: 'Override',
        entityId: id,
        tenantId,
        before: asJson(before),
      });
      const { version, countersReset } = await this.versions.commit(tx, tenantId, {
        actorId: actor.id,
      });
      return { override: null, version, countersReset };
    });
  }

  private async finish(
    tx: Db,
    actor: AuditActor,
    tenantId: string,
    policyName: string,
    before: OverrideRow | undefined,
    after: OverrideRow,
    ruleInputs: readonly RuleChangeInput[] | null | undefined,
  ): Promise<OverridePayload> {
    await this.audit.record(tx, actor, {
      action: before ? 'override.update' : 'override.create',
      entityType: 'Override',
      entityId: after.id,
      tenantId,
      ...(before && { before: asJson(before) }),
      after: asJson(after),
    });
    const order = (ruleInputs ?? []).map((rule) => rule.name);
    const { version, countersReset } = await this.versions.commit(tx, tenantId, {
      actorId: actor.id,
      fieldOf: (issue) => overrideField(issue, after, order, 'input'),
    });
    return { override: overrideModel(after, policyName), version, countersReset };
  }

  /**
   * A tenant's override of one of its plan's policies stays within what the plan lets the tenant
   * change (`tenantBounds`), as its own change of the template would: else per-plan quotas could be
   * raised one identifier at a time. Operators may go beyond.
   */
  private checkPlanBounds(
    user: AuthUser,
    state: TenantState,
    policyId: string,
    rules: Record<string, RuleParams>,
    inputs: readonly RuleChangeInput[],
  ): void {
    if (isOperator(user) || !state.planPolicies.some((p) => p.id === policyId)) return;
    const order = inputs.map((rule) => rule.name);
    throwIfIssues(
      checkChangeBounds(state, policyId, rules, (rule, param) =>
        ['input.rules', order.indexOf(rule), param].filter((p) => p !== undefined).join('.'),
      ),
    );
  }

  private policyNamed(state: TenantState, name: string) {
    const policy = [...state.planPolicies, ...state.ownPolicies].find((p) => p.name === name);
    if (!policy) {
      throw AppError.badUserInput([
        { field: 'input.policy', message: `the tenant has no policy named ${name}` },
      ]);
    }
    return policy;
  }

  private async tenantOf(user: AuthUser, id: string): Promise<string> {
    const row = await this.prisma.override.findFirst({
      where: { id, tenant: { deletedAt: null } },
      select: { tenantId: true },
    });
    this.tenants.check(user, row?.tenantId, 'write', 'No such override.');
    return row?.tenantId ?? '';
  }
}
