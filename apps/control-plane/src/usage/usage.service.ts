import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import { NAME_PATTERN, readTenant } from '@sluice/policy';
import {
  addUsage,
  type UsageTotals as Counts,
  emptyUsage,
  readActiveMinutes,
  readMinutes,
  readSeconds,
  readTopDenied,
} from '@sluice/usage';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import type { AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import type { TopDeniedArgs, UsageRangeArgs, UsageSeriesInput } from './models/usage.args';
import {
  type DeniedIdentifier,
  type PolicyUsageTotals,
  type UsageSeries,
  UsageResolution,
} from './models/usage.model';
import { firstRetainedSecond, rowCounts, toPoint, toTotals } from './usage.mapping';
import { sumRollups } from './usage-rollups';

/**
 * Points one series may have, per resolution: 15 minutes of seconds, a day of minutes, a month
 * of hours, 92 days.
 */
export const MAX_SECOND_POINTS = 900;
export const MAX_MINUTE_POINTS = 1440;
export const MAX_HOUR_POINTS = 744;
export const MAX_DAY_POINTS = 92;
/** Minutes per bucket of the resolutions read from the roll-ups in buckets. */
const BUCKET_MINUTES = { [UsageResolution.HOUR]: 60, [UsageResolution.DAY]: 1440 } as const;
/** Days one `usageTotals` range may span (the roll-ups' default retention, and then some). */
export const MAX_TOTALS_DAYS = 92;
export const MAX_TOP_DENIED = 100;

/**
 * The epoch minutes of `from`..`to` whose per-minute top lists Redis still keeps (they leave
 * with the seconds: older minutes would add nothing), up to the running one; undefined when none.
 */
export function retainedMinutes(
  range: { from: Date; to: Date },
  now: number,
): { first: number; last: number } | undefined {
  assertOrdered(range.from, range.to, 'to');
  const fromMinute = Math.floor(range.from.getTime() / 60_000);
  const toMinute = Math.ceil(range.to.getTime() / 60_000);
  if (toMinute - fromMinute > MAX_MINUTE_POINTS) {
    throw badInput('to', `the range spans at most ${MAX_MINUTE_POINTS} minutes (24 hours)`);
  }
  const nowSecond = Math.floor(now / 1000);
  const first = Math.max(fromMinute, Math.floor(firstRetainedSecond(nowSecond) / 60));
  const last = Math.min(toMinute - 1, Math.floor(nowSecond / 60));
  return last < first ? undefined : { first, last };
}

export const policySchema = z
  .string()
  .regex(NAME_PATTERN, 'must be a policy name: lowercase letters, digits, - and _ (at most 63)');
const limitSchema = z
  .number()
  .int()
  .min(1, `must be between 1 and ${MAX_TOP_DENIED}`)
  .max(MAX_TOP_DENIED, `must be between 1 and ${MAX_TOP_DENIED}`);

/** Epoch minute → counts. */
type MinuteCounts = Map<number, Counts>;

/**
 * Usage for the dashboard, read-only: tenant members (viewer or admin) read their own tenant's,
 * operators every tenant's. Seconds come from the data plane's counters in Redis (kept 15
 * minutes); minutes from the worker's `UsageMinute` rows, and, for recent minutes it has not
 * rolled up yet, from the seconds, so a chart has no gap. Buckets without usage are zeros.
 */
@Injectable()
export class UsageService {
  private readonly prefix: string;

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly redis: RedisService,
    private readonly tenants: TenantAccessService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
  }

  /** NOT_FOUND for a tenant the caller may not read (or that does not exist), as elsewhere. */
  async authorize(user: AuthUser, tenantId: string): Promise<void> {
    await this.tenants.tenant(user, tenantId, 'read');
  }

  async series(user: AuthUser, input: UsageSeriesInput): Promise<UsageSeries> {
    await this.authorize(user, input.tenantId);
    const policy = parseInput(policySchema, input.policy, 'input.policy');
    assertOrdered(input.from, input.to, 'input.to');
    const now = Date.now();
    const nowSecond = Math.floor(now / 1000);
    const fromSecond = Math.floor(input.from.getTime() / 1000);
    const toSecond = Math.ceil(input.to.getTime() / 1000);
    const retained = fromSecond >= firstRetainedSecond(nowSecond);
    const spanMinutes = Math.ceil((toSecond - fromSecond) / 60);
    const resolution =
      input.resolution ??
      (retained && toSecond - fromSecond <= MAX_SECOND_POINTS
        ? UsageResolution.SECOND
        : spanMinutes <= MAX_MINUTE_POINTS
          ? UsageResolution.MINUTE
          : spanMinutes <= MAX_HOUR_POINTS * 60
            ? UsageResolution.HOUR
            : UsageResolution.DAY);
    if (resolution === UsageResolution.HOUR || resolution === UsageResolution.DAY) {
      return this.bucketSeries(input.tenantId, policy, input.from, input.to, resolution, now);
    }

    if (resolution === UsageResolution.SECOND) {
      if (toSecond - fromSecond > MAX_SECOND_POINTS) {
        throw badInput(
          'input.to',
          `a SECOND series spans at most ${MAX_SECOND_POINTS} seconds: use MINUTE or a shorter range`,
        );
      }
      if (!retained) {
        throw badInput(
          'input.from',
          'per-second usage is kept 15 minutes: use MINUTE or a from within the last 15 minutes',
        );
      }
      const last = Math.min(toSecond - 1, nowSecond);
      const rows =
        last < fromSecond
          ? []
          : await readSeconds(
              this.redis.client,
              this.prefix,
              input.tenantId,
              policy,
              fromSecond,
              last,
            );
      return {
        resolution,
        from: new Date(fromSecond * 1000),
        to: new Date(toSecond * 1000),
        points: rows.map((row) => toPoint(row.second * 1000, row)),
      };
    }

    const fromMinute = Math.floor(input.from.getTime() / 60_000);
    const toMinute = Math.ceil(input.to.getTime() / 60_000);
    if (toMinute - fromMinute > MAX_MINUTE_POINTS) {
      throw badInput(
        'input.to',
        `a MINUTE series spans at most ${MAX_MINUTE_POINTS} minutes (24 hours)`,
      );
    }
    const last = Math.min(toMinute - 1, Math.floor(now / 60_000));
    const counts =
      last < fromMinute
        ? new Map<number, Counts>()
        : ((await this.minutes(input.tenantId, [policy], fromMinute, last, now)).get(policy) ??
          new Map<number, Counts>());
    const points = [];
    for (let minute = fromMinute; minute <= last; minute += 1) {
      points.push(toPoint(minute * 60_000, counts.get(minute) ?? emptyUsage()));
    }
    return {
      resolution,
      from: new Date(fromMinute * 60_000),
      to: new Date(toMinute * 60_000),
      points,
    };
  }

  /** A series of hours or days (UTC), summed in PostgreSQL, recent minutes from Redis. */
  private async bucketSeries(
    tenantId: string,
    policy: string,
    from: Date,
    to: Date,
    resolution: UsageResolution.HOUR | UsageResolution.DAY,
    now: number,
  ): Promise<UsageSeries> {
    const size = BUCKET_MINUTES[resolution];
    const max = resolution === UsageResolution.HOUR ? MAX_HOUR_POINTS : MAX_DAY_POINTS;
    const fromBucket = Math.floor(from.getTime() / 60_000 / size) * size;
    const toBucket = Math.ceil(to.getTime() / 60_000 / size) * size;
    if ((toBucket - fromBucket) / size > max) {
      throw badInput(
        'input.to',
        `a ${resolution} series has at most ${max} points: use a coarser resolution or a shorter range`,
      );
    }
    const last = Math.min(toBucket - 1, Math.floor(now / 60_000));
    const points = [];
    if (last >= fromBucket) {
      const rolled = await sumRollups(this.prisma, tenantId, fromBucket, last, {
        policy,
        bucketMinutes: size,
      });
      const buckets = rolled.get(policy) ?? new Map<number, Counts>();
      await this.addRecent(tenantId, [policy], fromBucket, last, now, (_, minute, counts) => {
        const bucket = Math.floor(minute / size) * size;
        buckets.set(bucket, addUsage(buckets.get(bucket) ?? emptyUsage(), counts));
      });
      for (let bucket = fromBucket; bucket <= last; bucket += size) {
        points.push(toPoint(bucket * 60_000, buckets.get(bucket) ?? emptyUsage()));
      }
    }
    return {
      resolution,
      from: new Date(fromBucket * 60_000),
      to: new Date(toBucket * 60_000),
      points,
    };
  }

  /**
   * Hands each recent minute from `fromMinute` to `last` that has no `UsageMinute` row yet, summed
   * from its seconds in Redis (while they are kept), to `add`.
   */
  private async addRecent(
    tenantId: string,
    policies: readonly string[],
    fromMinute: number,
    last: number,
    now: number,
    add: (policy: string, minute: number, counts: Counts) => void,
  ): Promise<void> {
    const retainedFrom = Math.ceil(firstRetainedSecond(Math.floor(now / 1000)) / 60);
    const recentFrom = Math.max(fromMinute, retainedFrom);
    if (recentFrom > last || policies.length === 0) return;
    const rolled = new Map<string, Set<number>>();
    const rows = await this.prisma.usageMinute.findMany({
      where: {
        tenantId,
        policyName: { in: [...policies] },
        minute: { gte: new Date(recentFrom * 60_000), lte: new Date(last * 60_000) },
      },
      select: { policyName: true, minute: true },
    });
    for (const row of rows) {
      const minutes = rolled.get(row.policyName) ?? new Set<number>();
      rolled.set(row.policyName, minutes.add(row.minute.getTime() / 60_000));
    }
    const recent = await this.recentMinutes(tenantId, policies, recentFrom, last, rolled);
    for (const [policy, minutes] of recent) {
      for (const [minute, counts] of minutes) add(policy, minute, counts);
    }
  }

  /**
   * Per policy, the totals of the minutes overlapping the range: every policy the tenant has
   * published (zeros included) and every other one with usage in the range, by name.
   */
  async totals(user: AuthUser, args: UsageRangeArgs): Promise<PolicyUsageTotals[]> {
    await this.authorize(user, args.tenantId);
    assertOrdered(args.from, args.to, 'to');
    const now = Date.now();
    const fromMinute = Math.floor(args.from.getTime() / 60_000);
    const toMinute = Math.ceil(args.to.getTime() / 60_000);
    if (toMinute - fromMinute > MAX_TOTALS_DAYS * 1440) {
      throw badInput('to', `the range spans at most ${MAX_TOTALS_DAYS} days`);
    }
    const last = Math.min(toMinute - 1, Math.floor(now / 60_000));
    const totals = new Map<string, Counts>();
    const published = await readTenant(this.redis.client, this.prefix, args.tenantId);
    for (const name of Object.keys(published?.policies ?? {})) totals.set(name, emptyUsage());
    if (last < fromMinute) return toPolicyTotals(totals);

    const totalOf = (name: string): Counts => {
      let total = totals.get(name);
      if (!total) totals.set(name, (total = emptyUsage()));
      return total;
    };
    const rolled = await sumRollups(this.prisma, args.tenantId, fromMinute, last);
    for (const [name, buckets] of rolled) {
      for (const counts of buckets.values()) addUsage(totalOf(name), counts);
    }
    await this.addRecent(args.tenantId, [...totals.keys()], fromMinute, last, now, (name, _, c) =>
      addUsage(totalOf(name), c),
    );
    return toPolicyTotals(totals);
  }

  async topDenied(user: AuthUser, args: TopDeniedArgs): Promise<DeniedIdentifier[]> {
    await this.authorize(user, args.tenantId);
    const policy = parseInput(policySchema, args.policy, 'policy');
    const limit = parseInput(limitSchema, args.limit, 'limit');
    const minutes = retainedMinutes(args, Date.now());
    if (!minutes) return [];
    const { first, last } = minutes;
    return readTopDenied(this.redis.client, this.prefix, args.tenantId, policy, first, last, limit);
  }

  /**
   * Per policy, the counts of each minute from `fromMinute` to `last` that has any: its
   * `UsageMinute` row where the worker wrote one, else (while the minute's seconds are kept)
   * the sum of its seconds in Redis.
   */
  private async minutes(
    tenantId: string,
    policies: readonly string[],
    fromMinute: number,
    last: number,
    now: number,
  ): Promise<Map<string, MinuteCounts>> {
    const rows = await this.prisma.usageMinute.findMany({
      where: {
        tenantId,
        policyName: { in: [...policies] },
        minute: { gte: new Date(fromMinute * 60_000), lte: new Date(last * 60_000) },
      },
    });
    const result = new Map(policies.map((policy) => [policy, new Map() as MinuteCounts]));
    for (const row of rows) {
      result.get(row.policyName)?.set(row.minute.getTime() / 60_000, rowCounts(row));
    }
    const retainedFrom = Math.ceil(firstRetainedSecond(Math.floor(now / 1000)) / 60);
    const recentFrom = Math.max(fromMinute, retainedFrom);
    if (recentFrom <= last) {
      const recent = await this.recentMinutes(tenantId, policies, recentFrom, last, result);
      for (const [policy, minutes] of recent) {
        for (const [minute, counts] of minutes) result.get(policy)?.set(minute, counts);
      }
    }
    return result;
  }

  /**
   * The minutes from `fromMinute` to `last` (all with their seconds still in Redis) in which
   * each policy had usage, as the active sets tell, summed from the seconds; minutes `rolled`
   * already has are skipped, and policies without usage cost no read.
   */
  private async recentMinutes(
    tenantId: string,
    policies: readonly string[],
    fromMinute: number,
    last: number,
    rolled: ReadonlyMap<string, { has(minute: number): boolean }>,
  ): Promise<Map<string, MinuteCounts>> {
    const active = await readActiveMinutes(
      this.redis.client,
      this.prefix,
      tenantId,
      policies,
      fromMinute,
      last,
    );
    const result = new Map<string, MinuteCounts>();
    await Promise.all(
      [...active].map(async ([policy, minutes]) => {
        const missing = minutes.filter((minute) => !rolled.get(policy)?.has(minute));
        const [first] = missing;
        if (first === undefined) return;
        const sums = await readMinutes(
          this.redis.client,
          this.prefix,
          tenantId,
          policy,
          first,
          missing[missing.length - 1] ?? first,
        );
        const wanted = new Set(missing);
        result.set(
          policy,
          new Map(sums.filter((sum) => wanted.has(sum.minute)).map((sum) => [sum.minute, sum])),
        );
      }),
    );
    return result;
  }
}

function toPolicyTotals(totals: Map<string, Counts>): PolicyUsageTotals[] {
  return [...totals]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([policy, counts]) => ({ policy, ...toTotals(counts) }));
}

export function assertOrdered(from: Date, to: Date, field: string): void {
  if (to.getTime() <= from.getTime()) throw badInput(field, 'must be after from');
}

export function badInput(field: string, message: string): AppError {
  return AppError.badUserInput([{ field, message }]);
}
