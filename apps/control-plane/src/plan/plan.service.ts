import { Inject, Injectable } from '@nestjs/common';
import { newId, Prisma, type PrismaClient } from '@sluice/db';
import { SLUG_PATTERN } from '@sluice/policy';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { AccessService } from '../access/access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { asJson } from '../database/json';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError, throwIfIssues } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { type Connection, pageQuery, toConnection } from '../graphql/pagination';
import type { CounterReset } from '../policy-config/counter-resets';
import { boundsIssues, policyIssues } from '../policy-config/field-paths';
import { fitChangeCandidates } from '../policy-config/change-candidates';
import { fitChange, fitOverride } from '../policy-config/fit';
import { logCap, templateLogCapIssues } from '../policy-config/log-cap';
import type { PolicyRow } from '../policy-config/tenant-state';
import {
  policyModel,
  policyRowFromInput,
  type Policy,
  type PolicySettingsInput,
} from '../policy/models/policy.model';
import { TenantChanges } from '../publish/tenant-changes.service';
import { PolicyVersionsService } from '../publish/policy-versions.service';
import { TenantStateRepository, toPolicyRow } from '../publish/tenant-state.repository';
import type {
  CreatePlanInput,
  Plan,
  PlanPolicyPayload,
  PlansArgs,
  UpdatePlanInput,
} from './models/plan.model';

type Db = Prisma.TransactionClient;

const planFields = {
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  description: z.string().trim().max(500, 'must be at most 500 characters'),
};
const createPlanSchema = z.object({
  slug: z
    .string()
    .regex(SLUG_PATTERN, 'must be 1 to 63 lowercase letters, digits or inner hyphens'),
  name: planFields.name,
  description: planFields.description.nullish().transform((value) => value ?? ''),
  slidingLogMaxLimit: z.number().int().min(1, 'must be at least 1').nullish(),
  tenantCounterResets: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});
const updatePlanSchema = z.object({
  name: planFields.name.nullish(),
  description: planFields.description.nullish(),
  slidingLogMaxLimit: z.number().int().min(1, 'must be at least 1').nullish(),
  tenantCounterResets: z.boolean().nullish(),
});

const rulesInclude = {
  rules: { orderBy: [{ position: 'asc' }, { name: 'asc' }] },
} as const satisfies Prisma.PolicyInclude;

/**
 * Plans and their policy templates: the operators' alone to change. A change to a template
 * reaches every tenant on the plan in the same transaction (each gets a new version), and
 * tenants' changes and overrides that no longer fit are trimmed rather than left invalid.
 */
@Injectable()
export class PlanService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly states: TenantStateRepository,
    private readonly versions: PolicyVersionsService,
    private readonly changes: TenantChanges,
    @Inject(ENV) private readonly env: Env,
  ) {}

  /** Operators see every plan; tenant members the plans of their tenants. */
  private visible(user: AuthUser): Prisma.PlanWhereInput {
    const tenants = this.access.readableTenantIds(user);
    return tenants === undefined
      ? {}
      : { tenants: { some: { id: { in: tenants }, deletedAt: null } } };
  }

  async list(user: AuthUser, args: PlansArgs): Promise<Connection<Plan>> {
    const query = pageQuery(args);
    const search = args.search?.trim();
    const where: Prisma.PlanWhereInput = {
      AND: [
        this.visible(user),
        search
          ? {
              OR: [
                { slug: { contains: search, mode: 'insensitive' } },
                { name: { contains: search, mode: 'insensitive' } },
              ],
            }
          : {},
      ],
    };
    const [rows, total] = await Promise.all([
      this.prisma.plan.findMany({
        where,
        orderBy: { id: 'asc' },
        take: query.take,
        ...(query.after && { cursor: { id: query.after }, skip: 1 }),
      }),
      this.prisma.plan.count({ where }),
    ]);
    return toConnection(rows, query, total, (row) => row.id);
  }

  async get(user: AuthUser, id: string): Promise<Plan> {
    const plan = await this.prisma.plan.findFirst({ where: { AND: [{ id }, this.visible(user)] } });
    if (!plan) throw AppError.notFound('No such plan.');
    return plan;
  }

  async policies(planId: string): Promise<Policy[]> {
    const rows = await this.prisma.policy.findMany({
      where: { planId },
      include: rulesInclude,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map((row) => policyModel(toPolicyRow(row), { planId }));
  }

  tenantCount(planId: string): Promise<number> {
    return this.prisma.tenant.count({ where: { planId, deletedAt: null } });
  }

  /** The cap on sliding-log limits under `plan`: its own, at most the platform's. */
  logCapOf(plan: { slidingLogMaxLimit: number | null }): number {
    return logCap(this.env.CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT, plan.slidingLogMaxLimit);
  }

  /** A plan may lower the platform's cap, not raise it. */
  private checkPlanCap(cap: number | null | undefined): void {
    const platform = this.env.CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT;
    if (cap != null && cap > platform) {
      throw AppError.badUserInput([
        {
          field: 'input.slidingLogMaxLimit',
          message: `must be at most ${platform} (the platform's cap, CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT)`,
        },
      ]);
    }
  }

  async create(actor: AuditActor, input: CreatePlanInput): Promise<Plan> {
    const { slidingLogMaxLimit, ...fields } = parseInput(createPlanSchema, input, 'input');
    this.checkPlanCap(slidingLogMaxLimit);
    const data = { ...fields, slidingLogMaxLimit: slidingLogMaxLimit ?? null };
    return this.prisma.$transaction(async (tx) => {
      if (await tx.plan.findUnique({ where: { slug: data.slug }, select: { id: true } })) {
        throw AppError.conflict(`A plan with the slug ${data.slug} exists.`, 'input.slug');
      }
      const plan = await tx.plan.create({ data: { id: newId('plan'), ...data } });
      await this.audit.record(tx, actor, {
        action: 'plan.create',
        entityType: 'Plan',
        entityId: plan.id,
        after: data,
      });
      return plan;
    });
  }

  async update(actor: AuditActor, id: string, input: UpdatePlanInput): Promise<Plan> {
    const data = parseInput(updatePlanSchema, input, 'input');
    this.checkPlanCap(data.slidingLogMaxLimit);
    return this.prisma.$transaction(async (tx) => {
      const before = await tx.plan.findUnique({ where: { id } });
      if (!before) throw AppError.notFound('No such plan.');
      const plan = await tx.plan.update({
        where: { id },
        data: {
          ...(data.name != null && { name: data.name }),
          ...(data.description != null && { description: data.description }),
          // explicit null clears the plan's cap; absent leaves it
          ...(data.slidingLogMaxLimit !== undefined && {
            slidingLogMaxLimit: data.slidingLogMaxLimit,
          }),
          ...(data.tenantCounterResets != null && {
            tenantCounterResets: data.tenantCounterResets,
          }),
        },
      });
      const audited = (row: typeof plan) => ({
        name: row.name,
        description: row.description,
        slidingLogMaxLimit: row.slidingLogMaxLimit,
        tenantCounterResets: row.tenantCounterResets,
      });
      await this.audit.record(tx, actor, {
        action: 'plan.update',
        entityType: 'Plan',
        entityId: id,
        before: audited(before),
        after: audited(plan),
      });
      return plan;
    });
  }

  async delete(actor: AuditActor, id: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const plan = await tx.plan.findUnique({ where: { id } });
      if (!plan) throw AppError.notFound('No such plan.');
      const tenants = await tx.tenant.count({ where: { planId: id } });
      if (tenants > 0) {
        throw AppError.conflict(
          `${tenants} tenant(s) are on this plan: move them to another plan first.`,
        );
      }
      await tx.plan.delete({ where: { id } });
      await this.audit.record(tx, actor, {
        action: 'plan.delete',
        entityType: 'Plan',
        entityId: id,
        before: { slug: plan.slug, name: plan.name },
      });
      return true;
    });
  }

  async createPolicy(
    actor: AuditActor,
    planId: string,
    input: PolicySettingsInput,
  ): Promise<PlanPolicyPayload> {
    const row = policyRowFromInput(input, newId('policy'), true);
    this.validate(row);
    return this.changes.run(async (tx) => {
      const plan = await tx.plan.findUnique({
        where: { id: planId },
        select: { slidingLogMaxLimit: true },
      });
      if (!plan) throw AppError.notFound('No such plan.');
      throwIfIssues(templateLogCapIssues(row, undefined, this.logCapOf(plan), 'input'));
      await this.assertNameFree(tx, planId, row.name, undefined);
      await this.states.putPolicy(tx, { planId }, row);
      await this.audit.record(tx, actor, {
        action: 'plan_policy.create',
        entityType: 'Policy',
        entityId: row.id,
        after: asJson(row),
      });
      const effect = await this.republish(tx, actor, planId, undefined, row);
      return { policy: policyModel(row, { planId }), ...effect };
    });
  }

  async updatePolicy(
    actor: AuditActor,
    id: string,
    input: PolicySettingsInput,
  ): Promise<PlanPolicyPayload> {
    const row = policyRowFromInput(input, id, true);
    // validated by replaceTemplate, as every replacement is
    return this.replaceTemplate(actor, id, 'plan_policy.update', () => row);
  }

  /**
   * Replaces a template with what `next` makes of the stored one, validated with issues named
   * from `input`, audited as `action`, and republished to every tenant on the plan.
   */
  async replaceTemplate(
    actor: AuditActor,
    id: string,
    action: string,
    next: (before: PolicyRow) => PolicyRow,
  ): Promise<PlanPolicyPayload> {
    return this.changes.run(async (tx) => {
      const existing = await tx.policy.findFirst({
        where: { id, planId: { not: null } },
        include: { ...rulesInclude, plan: { select: { slidingLogMaxLimit: true } } },
      });
      if (!existing?.planId || !existing.plan) throw AppError.notFound('No such plan policy.');
      const before = toPolicyRow(existing);
      const row = next(before);
      this.validate(row);
      throwIfIssues(templateLogCapIssues(row, before, this.logCapOf(existing.plan), 'input'));
      await this.assertNameFree(tx, existing.planId, row.name, id);
      await this.states.putPolicy(tx, { planId: existing.planId }, row);
      await this.audit.record(tx, actor, {
        action,
        entityType: 'Policy',
        entityId: id,
        before: asJson(before),
        after: asJson(row),
      });
      const effect = await this.republish(tx, actor, existing.planId, before, row);
      return { policy: policyModel(row, { planId: existing.planId }), ...effect };
    });
  }

  async deletePolicy(actor: AuditActor, id: string): Promise<PlanPolicyPayload> {
    return this.changes.run(async (tx) => {
      const existing = await tx.policy.findFirst({
        where: { id, planId: { not: null } },
        include: rulesInclude,
      });
      if (!existing?.planId) throw AppError.notFound('No such plan policy.');
      // tenants' changes of it would otherwise outlive it as policies of their own
      await tx.policy.deleteMany({ where: { basePolicyId: id } });
      await tx.policy.delete({ where: { id } });
      await this.audit.record(tx, actor, {
        action: 'plan_policy.delete',
        entityType: 'Policy',
        entityId: id,
        before: asJson(toPolicyRow(existing)),
      });
      const effect = await this.republish(tx, actor, existing.planId, undefined, undefined);
      return { policy: null, ...effect };
    });
  }

  private validate(row: PolicyRow): void {
    throwIfIssues([...policyIssues(row, 'input'), ...boundsIssues(row, 'input')]);
  }

  /** A template's name must be free in its plan and among the own policies of its tenants. */
  private async assertNameFree(
    tx: Db,
    planId: string,
    name: string,
    exceptId: string | undefined,
  ): Promise<void> {
    const taken = await tx.policy.findFirst({
      where: { planId, name, ...(exceptId && { id: { not: exceptId } }) },
      select: { id: true },
    });
    if (taken) throw AppError.conflict(`The plan has a policy named ${name}.`, 'input.name');
    const owners = await tx.policy.findMany({
      where: { name, basePolicyId: null, tenant: { planId, deletedAt: null } },
      select: { tenant: { select: { slug: true } } },
      take: 5,
    });
    if (owners.length > 0) {
      const slugs = owners.map((owner) => owner.tenant?.slug ?? '?').join(', ');
      throw AppError.conflict(
        `Tenants on this plan have their own policy named ${name} (${slugs}): choose another name.`,
        'input.name',
      );
    }
  }

  /**
   * Every tenant on the plan gets its new effective policies as a new version. When a template
   * changed (`before` → `after`), a tenant's changes outside the new bounds and overrides of
   * rules that are gone (or changed algorithm) are trimmed first, and audited.
   */
  private async republish(
    tx: Db,
    actor: AuditActor,
    planId: string,
    before: PolicyRow | undefined,
    after: PolicyRow | undefined,
  ): Promise<{
    tenantsRepublished: number;
    tenantsTrimmed: number;
    countersReset: CounterReset[];
  }> {
    const tenants = await tx.tenant.findMany({
      where: { planId, deletedAt: null },
      select: { id: true, slug: true },
      orderBy: { id: 'asc' },
    });
    let republished = 0;
    const countersReset: CounterReset[] = [];
    let trimmed = 0;
    for (const tenant of tenants) {
      await this.states.lock(tx, tenant.id);
      if (before && after && (await this.trim(tx, actor, tenant.id, before, after))) trimmed += 1;
      try {
        const committed = await this.versions.commit(tx, tenant.id, { actorId: actor.id });
        if (committed.created) republished += 1;
        countersReset.push(...committed.countersReset);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw AppError.badUserInput([
          { field: 'input', message: `tenant ${tenant.slug} would be invalid: ${error.message}` },
        ]);
      }
    }
    return { tenantsRepublished: republished, tenantsTrimmed: trimmed, countersReset };
  }

  private async trim(
    tx: Db,
    actor: AuditActor,
    tenantId: string,
    before: PolicyRow,
    after: PolicyRow,
  ): Promise<boolean> {
    const state = await this.states.load(tx, tenantId);
    if (!state) return false;
    let trimmed = false;
    const change = state.changes.find((c) => c.basePolicyId === after.id);
    if (change) {
      const kept = {
        ...change,
        rules: fitChange(change.rules, after, before),
        candidates: fitChangeCandidates(after, change.candidates),
      };
      if (!isDeepStrictEqual(kept, change)) {
        trimmed = true;
        await this.states.putOrDropChange(tx, tenantId, after, kept);
        await this.audit.record(tx, actor, {
          action: 'policy_change.trim',
          entityType: 'Policy',
          entityId: change.id,
          tenantId,
          before: asJson({ rules: change.rules, candidateRules: change.candidates }),
          after: asJson({ rules: kept.rules, candidateRules: kept.candidates }),
        });
      } else if (before.name !== after.name) {
        await this.states.putChange(tx, tenantId, after, change);
      }
    }
    for (const override of state.overrides.filter((o) => o.policyId === after.id)) {
      const kept = fitOverride(override.rules, after, before);
      if (isDeepStrictEqual(kept, override.rules)) continue;
      trimmed = true;
      if (Object.keys(kept).length === 0) await tx.override.delete({ where: { id: override.id } });
      else await this.states.putOverride(tx, tenantId, { ...override, rules: kept });
      await this.audit.record(tx, actor, {
        action: 'override.trim',
        entityType: 'Override',
        entityId: override.id,
        tenantId,
        before: override.rules as Prisma.InputJsonObject,
        after: kept as Prisma.InputJsonObject,
      });
    }
    return trimmed;
  }
}
