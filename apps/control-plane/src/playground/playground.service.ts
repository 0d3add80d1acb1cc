import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import {
  type CheckResult,
  type DecisionEngine,
  InputError,
  PolicyNotFoundError,
  UnavailableError,
} from '@sluice/engine';
import type { ApiKeyRecord } from '@sluice/policy';
import { MAX_COST, MAX_IDENTIFIER_BYTES } from '@sluice/algorithms';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ConsoleEngineService } from '../engine/console-engine.service';
import { AppError, badUserInputOf } from '../graphql/app-error';
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

const identifierSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine(
    (value) => Buffer.byteLength(value, 'utf8') <= MAX_IDENTIFIER_BYTES - SCRATCH_PREFIX.length,
    {
      error: `must be at most ${MAX_IDENTIFIER_BYTES - SCRATCH_PREFIX.length} bytes (UTF-8)`,
    },
  );

const checkSchema = z.object({
  policy: policySchema,
  identifier: identifierSchema,
  cost: z
    .number()
    .int()
    .min(0, `must be from 0 to ${MAX_COST}`)
    .max(MAX_COST, `must be from 0 to ${MAX_COST}`),
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
    const identifier = parseInput(identifierSchema, args.identifier, 'identifier');
    await this.tenants.tenant(user, args.tenantId, 'read');
    const checked = args.realIdentifier ? identifier : SCRATCH_PREFIX + identifier;
    const key = consoleKey(user, args.tenantId);
    const engine = await engineCall(() => this.console.ready(), '');
    const inspect = () => engine.inspect({ key, policy, identifier: checked });
    // a console read, not a decision answered by a fail mode: one more try after a Redis stall
    const result = await engineCall(
      () =>
        inspect().catch((error: unknown) => {
          if (error instanceof UnavailableError) return inspect();
          throw error;
        }),
      '',
    );
    return toPlaygroundDecision(result);
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
        entityType: 'tenant',
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

/** The console's key for `user` in the tenant: never stored, never published. */
function consoleKey(user: AuthUser, tenantId: string): ApiKeyRecord {
  return { id: `console-${user.id}`, tenantId, policies: null, scopes: ['check', 'admin'] };
}

/** An engine call, its errors as the API's: `path` prefixes the fields of bad input. */
async function engineCall<T>(call: () => Promise<T>, path: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PolicyNotFoundError) {
      throw AppError.notFound('The tenant has no published policy of this name.');
    }
    if (error instanceof InputError) {
      throw badUserInputOf(
        error.issues.map((issue) => ({ field: path + issue.path, message: issue.message })),
        { field: `${path}identifier`, message: error.message },
      );
    }
    if (error instanceof UnavailableError) throw AppError.unavailable(error.message);
    throw error;
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
