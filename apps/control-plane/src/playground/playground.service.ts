import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import type { CheckResult, DecisionEngine } from '@sluice/engine';
import type { ApiKeyRecord } from '@sluice/policy';
import { MAX_IDENTIFIER_BYTES } from '@sluice/algorithms';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ConsoleEngineService } from '../engine/console-engine.service';
import { consoleInspect, consoleKey, engineCall } from '../engine/console-engine-calls';
import { costSchema, identifierSchema } from '../engine/console-input';
import { parseInput } from '../graphql/input';
import { policySchema } from '../usage/usage.service';
import {
  MAX_PLAYGROUND_CHECKS,
  PlaygroundMode,
  SCRATCH_PREFIX,
  type PlaygroundCheckInput,
  type PlaygroundDecision,
  type PlaygroundPeekArgs,
  type PlaygroundRun,
} from './models/playground.model';
import { OneRunPerUser } from './one-run-per-user';
import { toPlaygroundDecision } from './playground.mapping';

const scratchIdentifier = identifierSchema(MAX_IDENTIFIER_BYTES - SCRATCH_PREFIX.length);

const checkSchema = z.object({
  policy: policySchema,
  identifier: scratchIdentifier,
  cost: costSchema,
  count: z
    .number()
    .int()
    .min(1, `must be from 1 to ${MAX_PLAYGROUND_CHECKS}`)
    .max(MAX_PLAYGROUND_CHECKS, `must be from 1 to ${MAX_PLAYGROUND_CHECKS}`),
});

/**
 * The console's playground: checks and peeks of a tenant's published policies through the data
 * plane's own engine (`ConsoleEngineService`), on the scratch identifier space
 * (`playground:<identifier>`) unless a real identifier is asked for. The console's key record
 * (`console-<userId>`, every scope, every policy) exists only in this process: no secret, never
 * published. Firing checks needs write access to the tenant (its admins, operators), as they
 * count in its usage; a peek, read access. Every run is audited (a peek, which changes nothing,
 * is not). One run at a time per user in this process; a run's leases are released when it ends.
 */
@Injectable()
export class PlaygroundService {
  private readonly runs = new OneRunPerUser(
    'A playground run of yours is still going; try again when it ends.',
  );

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly tenants: TenantAccessService,
    private readonly audit: AuditService,
    private readonly console: ConsoleEngineService,
  ) {}

  async peek(user: AuthUser, args: PlaygroundPeekArgs): Promise<PlaygroundDecision> {
    const policy = parseInput(policySchema, args.policy, 'policy');
    const identifier = parseInput(scratchIdentifier, args.identifier, 'identifier');
    await this.tenants.tenant(user, args.tenantId, 'read');
    const checked = args.realIdentifier ? identifier : SCRATCH_PREFIX + identifier;
    const key = consoleKey(user, args.tenantId);
    const engine = await engineCall(() => this.console.ready(), '');
    return toPlaygroundDecision(
      await consoleInspect(engine, { key, policy, identifier: checked }, ''),
    );
  }

  async run(
    user: AuthUser,
    actor: AuditActor,
    input: PlaygroundCheckInput,
  ): Promise<PlaygroundRun> {
    const { policy, identifier, cost, count } = parseInput(checkSchema, input, 'input');
    await this.tenants.tenant(user, input.tenantId, 'write');
    return this.runs.run(user.id, async () => {
      const engine = await engineCall(() => this.console.ready(), 'input.');
      const checked = input.realIdentifier ? identifier : SCRATCH_PREFIX + identifier;
      const key = consoleKey(user, input.tenantId);
      const check = () =>
        engineCall(() => engine.check({ key, policy, identifier: checked, cost }), 'input.');
      const startedAt = performance.now();
      const results: CheckResult[] = [];
      let elapsedMs: number;
      try {
        if (input.mode === PlaygroundMode.BURST) {
          results.push(...(await Promise.all(Array.from({ length: count }, check))));
        } else {
          for (let i = 0; i < count; i++) results.push(await check());
        }
        elapsedMs = performance.now() - startedAt;
      } finally {
        await releaseLeases(engine, key, results);
      }
      const allowed = results.filter((result) => result.allowed).length;
      const run: PlaygroundRun = {
        identifier: checked,
        realIdentifier: input.realIdentifier,
        allowed,
        denied: results.length - allowed,
        elapsedMs,
        decisions: results.map(toPlaygroundDecision),
      };
      await this.audited(actor, input, run);
      return run;
    });
  }

  private async audited(
    actor: AuditActor,
    input: PlaygroundCheckInput,
    run: PlaygroundRun,
  ): Promise<void> {
    await this.prisma.$transaction((tx) =>
      this.audit.record(tx, actor, {
        action: 'playground.check',
        entityType: 'Tenant',
        entityId: input.tenantId,
        tenantId: input.tenantId,
        after: {
          policy: input.policy,
          identifier: run.identifier,
          realIdentifier: run.realIdentifier,
          cost: input.cost,
          count: input.count,
          mode: input.mode,
          allowed: run.allowed,
          denied: run.denied,
        },
      }),
    );
  }
}

/** The run's checks ended: the slots they hold are freed, as a caller's finished requests'. */
async function releaseLeases(
  engine: DecisionEngine,
  key: ApiKeyRecord,
  results: readonly CheckResult[],
): Promise<void> {
  await Promise.all(
    results.flatMap(({ leaseId }) =>
      // a lease not released here expires by itself at its rule's TTL
      leaseId === undefined ? [] : [engine.release({ key, leaseId }).catch(() => undefined)],
    ),
  );
}
