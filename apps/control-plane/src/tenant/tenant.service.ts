import { Inject, Injectable } from '@nestjs/common';
import { newId, type Prisma, type PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import { readTenantVersions, SLUG_PATTERN, type TenantStatus } from '@sluice/policy';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { AccessService } from '../access/access.service';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { type AuthUser, isOperator } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { type Connection, pageQuery, toConnection } from '../graphql/pagination';
import { OutboxService } from '../outbox/outbox.service';
import { fitChangeCandidates } from '../policy-config/change-candidates';
import { fitChange, fitOverride } from '../policy-config/fit';
import { TenantChanges } from '../publish/tenant-changes.service';
import { PolicyVersionsService } from '../publish/policy-versions.service';
import { TenantStateRepository, toPolicyRow } from '../publish/tenant-state.repository';
import type {
  CreateTenantInput,
  Publication,
  Tenant,
  TenantsArgs,
  UpdateTenantInput,
} from './models/tenant.model';

type Db = Prisma.TransactionClient;

const name = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');
const createSchema = z.object({
  slug: z
    .string()
    .regex(SLUG_PATTERN, 'must be 1 to 63 lowercase letters, digits or inner hyphens'),
  name,
  planId: z.string().min(1, 'is required'),
});
const updateSchema = z.object({ name: name.nullish(), planId: z.string().min(1).nullish() });

const tenantSnapshot = (tenant: {
  slug: string;
  name: string;
  status: string;
  planId: string;
}) => ({
  slug: tenant.slug,
  name: tenant.name,
  status: tenant.status,
  planId: tenant.planId,
});

/** Tenants: created, moved between plans, suspended and deleted by operators; renamed by admins. */
@Injectable()
export class TenantService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly access: AccessService,
    private readonly tenants: TenantAccessService,
    private readonly audit: AuditService,
    private readonly outbox: OutboxService,
    private readonly states: TenantStateRepository,
    private readonly versions: PolicyVersionsService,
    private readonly changes: TenantChanges,
    private readonly redis: RedisService,
    @Inject(ENV) private readonly env: Env,
  ) {}

  async list(user: AuthUser, args: TenantsArgs): Promise<Connection<Tenant>> {
    const query = pageQuery(args);
    const readable = this.access.readableTenantIds(user);
    const search = args.search?.trim();
    const where: Prisma.TenantWhereInput = {
      deletedAt: null,
      ...(readable && { id: { in: readable } }),
      ...(args.status && { status: args.status }),
      ...(args.planId && { planId: args.planId }),
      ...(search && {
        OR: [
          { slug: { contains: search, mode: 'insensitive' } },
          { name: { contains: search, mode: 'insensitive' } },
        ],
      }),
    };
    const [rows, total] = await Promise.all([
      this.prisma.tenant.findMany({
        where,
        orderBy: { id: 'asc' },
        take: query.take,
        ...(query.after && { cursor: { id: query.after }, skip: 1 }),
      }),
      this.prisma.tenant.count({ where }),
    ]);
    return toConnection(rows.map(asTenant), query, total, (row) => row.id);
  }

  async get(user: AuthUser, id: string): Promise<Tenant> {
    return asTenant(await this.tenants.tenant(user, id, 'read'));
  }

  async publication(tenantId: string): Promise<Publication> {
    const [latest, pending, stored] = await Promise.all([
      this.prisma.policyVersion.findFirst({
        where: { tenantId },
        orderBy: { version: 'desc' },
        select: { version: true },
      }),
      this.prisma.outboxEvent.count({ where: { tenantId, processedAt: null } }),
      readTenantVersions(this.redis.client, this.env.SLUICE_KEY_PREFIX, [tenantId]),
    ]);
    return {
      version: latest?.version ?? null,
      redisVersion: stored.get(tenantId) ?? null,
      pending: pending > 0,
    };
  }

  async create(actor: AuditActor, input: CreateTenantInput): Promise<Tenant> {
    const data = parseInput(createSchema, input, 'input');
    const tenant = await this.changes.run(async (tx) => {
      if (await tx.tenant.findUnique({ where: { slug: data.slug }, select: { id: true } })) {
        throw AppError.conflict(`A tenant with the slug ${data.slug} exists.`, 'input.slug');
      }
      if (!(await tx.plan.findUnique({ where: { id: data.planId }, select: { id: true } }))) {
        throw AppError.badUserInput([{ field: 'input.planId', message: 'is not a plan' }]);
      }
      const row = await tx.tenant.create({ data: { id: newId('tenant'), ...data } });
      await this.audit.record(tx, actor, {
        action: 'tenant.create',
        entityType: 'Tenant',
        entityId: row.id,
        tenantId: row.id,
        after: tenantSnapshot(row),
      });
      await this.versions.commit(tx, row.id, { actorId: actor.id });
      return row;
    });
    return asTenant(tenant);
  }

  async update(
    user: AuthUser,
    actor: AuditActor,
    id: string,
    input: UpdateTenantInput,
  ): Promise<Tenant> {
    const data = parseInput(updateSchema, input, 'input');
    await this.tenants.tenant(user, id, 'write');
    if (data.planId != null && !isOperator(user)) {
      throw AppError.forbidden('Only operators move a tenant to another plan.');
    }
    const tenant = await this.changes.run(async (tx) => {
      await this.states.lock(tx, id);
      const before = await tx.tenant.findUniqueOrThrow({ where: { id } });
      if (data.planId != null && data.planId !== before.planId) {
        await this.movePlan(tx, actor, id, data.planId);
      }
      const after = await tx.tenant.update({
        where: { id },
        data: {
          ...(data.name != null && { name: data.name }),
          ...(data.planId != null && { planId: data.planId }),
        },
      });
      await this.audit.record(tx, actor, {
        action: 'tenant.update',
        entityType: 'Tenant',
        entityId: id,
        tenantId: id,
        before: tenantSnapshot(before),
        after: tenantSnapshot(after),
      });
      await this.versions.commit(tx, id, { actorId: actor.id });
      return after;
    });
    return asTenant(tenant);
  }

  /**
   * The tenant's changes and overrides follow to the new plan's templates of the same names
   * (trimmed to what those allow); the rest are removed. Audited.
   */
  private async movePlan(tx: Db, actor: AuditActor, tenantId: string, planId: string) {
    if (!(await tx.plan.findUnique({ where: { id: planId }, select: { id: true } }))) {
      throw AppError.badUserInput([{ field: 'input.planId', message: 'is not a plan' }]);
    }
    const state = await this.states.load(tx, tenantId);
    if (!state) throw AppError.notFound('No such tenant.');
    const targets = new Map(
      (
        await tx.policy.findMany({
          where: { planId },
          include: { rules: { orderBy: [{ position: 'asc' }, { name: 'asc' }] } },
        })
      ).map((policy) => [policy.name, toPolicyRow(policy)]),
    );
    const clash = state.ownPolicies.find((policy) => targets.has(policy.name));
    if (clash) {
      throw AppError.conflict(
        `The new plan has a policy named ${clash.name}, as the tenant's own: rename or delete the tenant's first.`,
        'input.planId',
      );
    }
    const oldPlan = new Map(state.planPolicies.map((policy) => [policy.id, policy]));
    const moved: Record<string, unknown> = {};
    for (const change of state.changes) {
      const old = oldPlan.get(change.basePolicyId);
      const target = old && targets.get(old.name);
      const kept = target ? fitChange(change.rules, target) : {};
      const candidates = target ? fitChangeCandidates(target, change.candidates) : [];
      if (!target || (Object.keys(kept).length === 0 && candidates.length === 0)) {
        await tx.policy.delete({ where: { id: change.id } });
        moved[`changes.${old?.name ?? change.id}`] = 'removed';
      } else {
        await tx.policy.update({ where: { id: change.id }, data: { basePolicyId: target.id } });
        await this.states.putChange(tx, tenantId, target, { ...change, rules: kept, candidates });
        moved[`changes.${target.name}`] =
          isDeepStrictEqual(kept, change.rules) && candidates.length === change.candidates.length
            ? 'kept'
            : 'trimmed';
      }
    }
    for (const override of state.overrides) {
      const old = oldPlan.get(override.policyId);
      if (!old) continue; // an override of the tenant's own policy stays
      const target = targets.get(old.name);
      const kept = target ? fitOverride(override.rules, target, old) : {};
      const label = `overrides.${old.name}.${override.identifier}`;
      if (!target || Object.keys(kept).length === 0) {
        await tx.override.delete({ where: { id: override.id } });
        moved[label] = 'removed';
      } else {
        await this.states.putOverride(tx, tenantId, {
          ...override,
          policyId: target.id,
          rules: kept,
        });
        moved[label] = isDeepStrictEqual(kept, override.rules) ? 'kept' : 'trimmed';
      }
    }
    await this.audit.record(tx, actor, {
      action: 'tenant.move_plan',
      entityType: 'Tenant',
      entityId: tenantId,
      tenantId,
      after: { planId, moved } as Prisma.InputJsonObject,
    });
  }

  async setStatus(actor: AuditActor, id: string, status: TenantStatus): Promise<Tenant> {
    const tenant = await this.changes.run(async (tx) => {
      if (!(await this.states.lock(tx, id))) throw AppError.notFound('No such tenant.');
      const before = await tx.tenant.findUniqueOrThrow({ where: { id } });
      const after = await tx.tenant.update({ where: { id }, data: { status } });
      if (before.status !== status) {
        await this.audit.record(tx, actor, {
          action: status === 'suspended' ? 'tenant.suspend' : 'tenant.resume',
          entityType: 'Tenant',
          entityId: id,
          tenantId: id,
          before: { status: before.status },
          after: { status },
        });
        await this.versions.commit(tx, id, { actorId: actor.id });
      }
      return after;
    });
    return asTenant(tenant);
  }

  /**
   * Hidden from the API at once; the relay removes its policies, keys and counters from Redis
   * and then its rows (in the background, retried until done). The audit log stays.
   */
  async delete(actor: AuditActor, id: string): Promise<boolean> {
    await this.changes.run(async (tx) => {
      if (!(await this.states.lock(tx, id))) throw AppError.notFound('No such tenant.');
      const tenant = await tx.tenant.update({ where: { id }, data: { deletedAt: new Date() } });
      await this.audit.record(tx, actor, {
        action: 'tenant.delete',
        entityType: 'Tenant',
        entityId: id,
        tenantId: id,
        before: tenantSnapshot(tenant),
      });
      await this.outbox.enqueue(tx, id, 'tenant-deleted');
    });
    return true;
  }
}

function asTenant(row: {
  id: string;
  slug: string;
  name: string;
  status: string;
  planId: string;
  createdAt: Date;
  updatedAt: Date;
}): Tenant {
  return { ...row, status: row.status as TenantStatus };
}
