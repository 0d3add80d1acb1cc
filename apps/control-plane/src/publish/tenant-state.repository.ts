import { Injectable } from '@nestjs/common';
import { newId, type Prisma } from '@sluice/db';
import type { TenantStatus } from '@sluice/policy';
import { AppError } from '../graphql/app-error';
import type {
  ChangeRow,
  OverrideRow,
  PolicyRow,
  RuleParams,
  TenantBounds,
  TenantState,
} from '../policy-config/tenant-state';

type Db = Prisma.TransactionClient;

const policyWithRules = {
  include: { rules: { orderBy: [{ position: 'asc' }, { name: 'asc' }] } },
  orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
} as const satisfies Prisma.PolicyFindManyArgs;

type PolicyWithRules = Prisma.PolicyGetPayload<{ include: { rules: true } }>;

/** Reads and writes what a tenant's effective policies are made of (`TenantState`). */
@Injectable()
export class TenantStateRepository {
  /** Serializes changes to one tenant's configuration (and its version numbers) until commit. */
  async lock(tx: Db, tenantId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Tenant" WHERE id = ${tenantId} AND "deletedAt" IS NULL FOR UPDATE`;
    return rows.length === 1;
  }

  /** `lock`, then `load`: NOT_FOUND when the tenant does not exist or is being deleted. */
  async lockAndLoad(tx: Db, tenantId: string): Promise<TenantState> {
    const state = (await this.lock(tx, tenantId)) ? await this.load(tx, tenantId) : undefined;
    if (!state) throw AppError.notFound('No such tenant.');
    return state;
  }

  /** Undefined for a tenant that does not exist or is being deleted. */
  async load(tx: Db, tenantId: string): Promise<TenantState | undefined> {
    const tenant = await tx.tenant.findFirst({
      where: { id: tenantId, deletedAt: null },
      select: { id: true, slug: true, status: true, planId: true },
    });
    if (!tenant) return undefined;
    const [planPolicies, tenantPolicies, overrides] = await Promise.all([
      tx.policy.findMany({ where: { planId: tenant.planId }, ...policyWithRules }),
      tx.policy.findMany({ where: { tenantId }, ...policyWithRules }),
      tx.override.findMany({
        where: { tenantId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
    ]);
    return {
      tenant: { id: tenant.id, slug: tenant.slug, status: tenant.status as TenantStatus },
      planPolicies: planPolicies.map(toPolicyRow),
      ownPolicies: tenantPolicies.filter((p) => p.basePolicyId === null).map(toPolicyRow),
      changes: tenantPolicies
        .filter((p) => p.basePolicyId !== null)
        .map((p): ChangeRow => {
          const { rules } = toPolicyRow(p);
          return {
            id: p.id,
            basePolicyId: p.basePolicyId ?? '',
            rules: Object.fromEntries(
              rules.filter((rule) => !rule.candidate).map((rule) => [rule.name, rule.params]),
            ),
            candidates: rules.filter((rule) => rule.candidate),
          };
        }),
      overrides: overrides.map((o): OverrideRow => ({
        id: o.id,
        policyId: o.policyId,
        match: o.match,
        identifier: o.identifier,
        rules: o.rules as Record<string, RuleParams>,
        reason: o.reason,
        expiresAt: o.expiresAt,
      })),
    };
  }

  /**
   * Makes the tenant's own rows (its policies, changes and overrides) those of `after`, keeping
   * the ids `after` kept. Used by import and rollback.
   */
  async replaceTenantLayer(tx: Db, before: TenantState, after: TenantState): Promise<void> {
    const tenantId = before.tenant.id;
    const kept = new Set([
      ...after.ownPolicies.map((p) => p.id),
      ...after.changes.map((c) => c.id),
    ]);
    const gone = [...before.ownPolicies, ...before.changes]
      .map((p) => p.id)
      .filter((id) => !kept.has(id));
    await tx.override.deleteMany({
      where: { tenantId, id: { notIn: after.overrides.map((o) => o.id) } },
    });
    if (gone.length > 0) await tx.policy.deleteMany({ where: { tenantId, id: { in: gone } } });
    for (const policy of after.ownPolicies) await this.putPolicy(tx, { tenantId }, policy);
    const templates = new Map(after.planPolicies.map((p) => [p.id, p]));
    for (const change of after.changes) {
      const base = templates.get(change.basePolicyId);
      if (base) await this.putChange(tx, tenantId, base, change);
    }
    for (const override of after.overrides) await this.putOverride(tx, tenantId, override);
  }

  /** Creates or replaces a tenant's own policy or a plan's template, and its rules. */
  async putPolicy(
    tx: Db,
    owner: { tenantId: string } | { planId: string },
    policy: PolicyRow,
  ): Promise<void> {
    const settings = {
      name: policy.name,
      description: policy.description,
      mode: policy.mode,
      failMode: policy.failMode,
      redisTimeoutMs: policy.redisTimeoutMs,
      reservationTtlMs: policy.reservationTtlMs,
    };
    await tx.policy.upsert({
      where: { id: policy.id },
      create: { id: policy.id, ...owner, ...settings },
      update: settings,
    });
    await this.putRules(tx, policy.id, policy.rules);
  }

  /**
   * A change row carries the template's name and, per changed rule, the changed parameters (as a
   * rule row of the template rule's name), then the tenant's candidate rules as they are.
   */
  async putChange(tx: Db, tenantId: string, base: PolicyRow, change: ChangeRow): Promise<void> {
    await tx.policy.upsert({
      where: { id: change.id },
      create: { id: change.id, tenantId, name: base.name, basePolicyId: base.id },
      update: { name: base.name },
    });
    await this.putRules(tx, change.id, [
      ...Object.entries(change.rules).map(([name, params]) => ({
        name,
        algorithm: base.rules.find((rule) => rule.name === name)?.algorithm ?? 'token_bucket',
        params,
        candidate: false,
        replaces: null,
        tenantBounds: null,
      })),
      ...change.candidates,
    ]);
  }

  /** Stores `change`, or removes its row once it neither changes a value nor holds a candidate. */
  async putOrDropChange(
    tx: Db,
    tenantId: string,
    base: PolicyRow,
    change: ChangeRow,
  ): Promise<void> {
    if (Object.keys(change.rules).length > 0 || change.candidates.length > 0) {
      await this.putChange(tx, tenantId, base, change);
    } else {
      await tx.policy.deleteMany({ where: { id: change.id, tenantId } });
    }
  }

  async putOverride(tx: Db, tenantId: string, override: OverrideRow): Promise<void> {
    const data = {
      policyId: override.policyId,
      match: override.match,
      identifier: override.identifier,
      rules: override.rules as Prisma.InputJsonObject,
      reason: override.reason,
      expiresAt: override.expiresAt,
    };
    await tx.override.upsert({
      where: { id: override.id },
      create: { id: override.id, tenantId, ...data },
      update: data,
    });
  }

  private async putRules(tx: Db, policyId: string, rules: PolicyRow['rules']): Promise<void> {
    await tx.rule.deleteMany({ where: { policyId } });
    if (rules.length === 0) return;
    await tx.rule.createMany({
      data: rules.map((rule, position) => ({
        id: newId('rule'),
        policyId,
        name: rule.name,
        position,
        algorithm: rule.algorithm,
        params: rule.params as Prisma.InputJsonObject,
        candidate: rule.candidate,
        replaces: rule.replaces,
        ...(rule.tenantBounds && { tenantBounds: rule.tenantBounds as Prisma.InputJsonObject }),
      })),
    });
  }
}

function asParams(value: Prisma.JsonValue): RuleParams {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as RuleParams)
    : {};
}

export function toPolicyRow(policy: PolicyWithRules): PolicyRow {
  return {
    id: policy.id,
    name: policy.name,
    description: policy.description,
    mode: policy.mode,
    failMode: policy.failMode,
    redisTimeoutMs: policy.redisTimeoutMs,
    reservationTtlMs: policy.reservationTtlMs,
    rules: policy.rules.map((rule) => ({
      name: rule.name,
      algorithm: rule.algorithm,
      params: asParams(rule.params),
      candidate: rule.candidate,
      replaces: rule.replaces,
      tenantBounds: (rule.tenantBounds as TenantBounds | null) ?? null,
    })),
  };
}
