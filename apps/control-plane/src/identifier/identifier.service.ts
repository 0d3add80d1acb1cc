import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient, Tenant } from '@sluice/db';
import { MAX_IDENTIFIER_BYTES } from '@sluice/algorithms';
import { AccessService } from '../access/access.service';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { isOperator, type AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ConsoleEngineService } from '../engine/console-engine.service';
import { consoleInspect, consoleKey, engineCall } from '../engine/console-engine-calls';
import { costSchema, identifierSchema } from '../engine/console-input';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { toPlaygroundDecision } from '../playground/playground.mapping';
import type { RuleParams } from '../policy-config/tenant-state';
import { overrideModel, type Override } from '../policy/models/policy.model';
import { policySchema } from '../usage/usage.service';
import type {
  IdentifierState,
  IdentifierStateArgs,
  ResetIdentifierInput,
  ResetIdentifierPayload,
} from './models/identifier.model';

const targetIdentifier = identifierSchema(MAX_IDENTIFIER_BYTES);

/**
 * One identifier as the console shows it: its live state in every rule of a policy (through the
 * embedded engine, a peek that spends nothing), the overrides that match it, and a reset of its
 * counters. A reset is audited and allowed to operators always, to tenant admins only where the
 * tenant's plan says so (`Plan.tenantCounterResets`, off by default: a tenant resetting its own
 * quota defeats the plan).
 */
@Injectable()
export class IdentifierService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly tenants: TenantAccessService,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly console: ConsoleEngineService,
  ) {}

  async state(user: AuthUser, args: IdentifierStateArgs): Promise<IdentifierState> {
    const { policy, identifier } = this.target(args, '');
    const cost = parseInput(costSchema, args.cost, 'cost');
    const tenant = await this.tenants.tenant(user, args.tenantId, 'read');
    return this.read(user, tenant, { policy, identifier, cost }, undefined, '');
  }

  async reset(
    user: AuthUser,
    actor: AuditActor,
    input: ResetIdentifierInput,
  ): Promise<ResetIdentifierPayload> {
    const { policy, identifier } = this.target(input, 'input.');
    const tenant = await this.tenants.tenant(user, input.tenantId, 'write');
    if (!(await this.mayReset(user, tenant))) {
      throw AppError.forbidden(
        "The tenant's plan does not let its admins reset counters; an operator can.",
      );
    }
    const engine = await engineCall(() => this.console.ready(), 'input.');
    const key = consoleKey(user, tenant.id);
    const { deleted } = await engineCall(() => engine.reset({ key, policy, identifier }), 'input.');
    // recorded once done: a reset Redis refused leaves no entry
    await this.prisma.$transaction((tx) =>
      this.audit.record(tx, actor, {
        action: 'identifier.reset',
        entityType: 'Tenant',
        entityId: tenant.id,
        tenantId: tenant.id,
        after: { policy, identifier, deleted },
      }),
    );
    const state = await this.read(user, tenant, { policy, identifier, cost: 1 }, true, 'input.');
    return { deleted, state };
  }

  private target(args: { policy: string; identifier: string }, path: string) {
    return {
      policy: parseInput(policySchema, args.policy, `${path}policy`),
      identifier: parseInput(targetIdentifier, args.identifier, `${path}identifier`),
    };
  }

  private async read(
    user: AuthUser,
    tenant: Tenant,
    target: { policy: string; identifier: string; cost: number },
    /** Whether the caller may reset, when known already (else read beside the state). */
    canReset: boolean | undefined,
    path: string,
  ): Promise<IdentifierState> {
    const { policy, identifier } = target;
    const engine = await engineCall(() => this.console.ready(), path);
    const key = consoleKey(user, tenant.id);
    const [now, next, overrides, mayReset] = await Promise.all([
      consoleInspect(engine, { key, policy, identifier }, path),
      consoleInspect(engine, { key, ...target }, path),
      this.matchingOverrides(tenant.id, policy, identifier),
      canReset ?? this.mayReset(user, tenant),
    ]);
    return {
      tenantId: tenant.id,
      policy,
      identifier,
      now: toPlaygroundDecision(now),
      next: toPlaygroundDecision(next),
      overrides,
      canReset: mayReset,
    };
  }

  private async mayReset(user: AuthUser, tenant: Tenant): Promise<boolean> {
    if (isOperator(user)) return true;
    if (!this.access.can(user, 'write', tenant.id)) return false;
    const plan = await this.prisma.plan.findUnique({
      where: { id: tenant.planId },
      select: { tenantCounterResets: true },
    });
    return plan?.tenantCounterResets ?? false;
  }

  /** Exact first, then prefixes longest first: the order the engine tries them in. */
  private async matchingOverrides(
    tenantId: string,
    policy: string,
    identifier: string,
  ): Promise<Override[]> {
    // every prefix of the identifier (as the engine slices it): at most its length, one query
    const prefixes = Array.from({ length: identifier.length }, (_, i) =>
      identifier.slice(0, i + 1),
    );
    const rows = await this.prisma.override.findMany({
      where: {
        tenantId,
        policy: { name: policy },
        OR: [
          { match: 'exact', identifier },
          { match: 'prefix', identifier: { in: prefixes } },
        ],
      },
    });
    const rank = (row: (typeof rows)[number]) =>
      row.match === 'exact' ? Number.MAX_SAFE_INTEGER : row.identifier.length;
    return rows
      .sort((a, b) => rank(b) - rank(a))
      .map((row) =>
        overrideModel({ ...row, rules: row.rules as Record<string, RuleParams> }, policy),
      );
  }
}
