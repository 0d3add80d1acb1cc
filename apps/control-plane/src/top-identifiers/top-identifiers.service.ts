import { Inject, Injectable } from '@nestjs/common';
import type { CheckResult } from '@sluice/engine';
import { RedisService } from '@sluice/nest-kit';
import {
  type CostlyIdentifier,
  type DeniedIdentifier,
  readCostByMinute,
  readDeniedByMinute,
  readTopCost,
  readTopDenied,
} from '@sluice/usage';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import type { AuthUser } from '../auth/auth-user';
import { ConsoleEngineService } from '../engine/console-engine.service';
import { consoleInspect, consoleKey, engineCall } from '../engine/console-engine-calls';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { policySchema, retainedMinutes } from '../usage/usage.service';
import { runsOutAt } from './burn-down';
import {
  TopIdentifiersBy,
  type IdentifierQuota,
  type TopIdentifier,
  type TopIdentifiersArgs,
} from './models/top-identifiers.model';

/** Each row peeks its identifier's rules through the engine: a bounded number of Lua calls. */
export const MAX_TOP_IDENTIFIERS = 25;

const limitSchema = z
  .number()
  .int()
  .min(1, `must be between 1 and ${MAX_TOP_IDENTIFIERS}`)
  .max(MAX_TOP_IDENTIFIERS, `must be between 1 and ${MAX_TOP_IDENTIFIERS}`);

/**
 * A policy's top identifiers over a range of the last 15 minutes, by cost (the heavy hitters the
 * data planes keep per minute) or by denials, each with its quota in every live rule now (a peek
 * through the embedded engine) and, for quotas of an hour or more, when it runs out at the rate
 * it spent over the range.
 */
@Injectable()
export class TopIdentifiersService {
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisService,
    private readonly tenants: TenantAccessService,
    private readonly console: ConsoleEngineService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
  }

  async top(user: AuthUser, args: TopIdentifiersArgs): Promise<TopIdentifier[]> {
    const policy = parseInput(policySchema, args.policy, 'policy');
    const limit = parseInput(limitSchema, args.limit, 'limit');
    const tenant = await this.tenants.tenant(user, args.tenantId, 'read');
    const now = Date.now();
    const minutes = retainedMinutes(args, now);
    if (!minutes) return [];
    const { first, last } = minutes;
    const byCost = args.by === TopIdentifiersBy.COST;
    const at = [this.redis.client, this.prefix, tenant.id, policy] as const;
    const ranked = byCost
      ? await readTopCost(...at, first, last, limit)
      : await readTopDenied(...at, first, last, limit);
    const identifiers = ranked.map((row: { identifier: string }) => row.identifier);
    if (identifiers.length === 0) return [];
    // the other figure of each row, summed from its minutes (as far as Redis keeps them)
    const other = await (byCost ? readDeniedByMinute : readCostByMinute)(
      ...at,
      identifiers,
      first,
      last,
    );
    const otherOf = (identifier: string) =>
      (other.get(identifier) ?? []).reduce((sum, score) => sum + score, 0);

    // the rate over what the range covers of the minutes read: the last one is still running
    const spanMs = Math.max(60_000, Math.min(now, (last + 1) * 60_000) - first * 60_000);
    const engine = await engineCall(() => this.console.ready(), '');
    const key = consoleKey(user, tenant.id);
    const peeks = await Promise.all(
      identifiers.map((identifier) =>
        consoleInspect(engine, { key, policy, identifier }, '').catch((error: unknown) => {
          // a policy unpublished since: its identifiers have no quota left to show
          if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
          throw error;
        }),
      ),
    );
    return ranked.map((row: CostlyIdentifier | DeniedIdentifier, i) => {
      const cost = 'cost' in row ? row.cost : otherOf(row.identifier);
      const denied = 'denied' in row ? row.denied : otherOf(row.identifier);
      return { identifier: row.identifier, cost, denied, quota: quotaOf(peeks[i], cost / spanMs) };
    });
  }
}

function quotaOf(peek: CheckResult | undefined, ratePerMs: number): IdentifierQuota[] {
  if (!peek) return [];
  return peek.rules.map((rule) => {
    const out = runsOutAt(rule, ratePerMs, peek.at);
    return {
      rule: rule.name,
      algorithm: rule.algorithm,
      limit: rule.limit,
      remaining: rule.remaining,
      used: rule.limit > 0 ? Math.max(0, 1 - rule.remaining / rule.limit) : 0,
      resetAt: new Date(rule.resetAt),
      windowMs: rule.windowMs,
      runsOutAt: out === null ? null : new Date(out),
    };
  });
}
