import { Inject, Injectable } from '@nestjs/common';
import { Prisma, type PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import { NAME_PATTERN, readTenant } from '@sluice/policy';
import {
  addUsage,
  type UsageTotals as Counts,
  emptyUsage,
  MAX_READ_ROWS,
  readActiveMinutes,
  readDecisionLog,
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
import { encodeCursor, pageQuery } from '../graphql/pagination';
import type {
  DecisionLogArgs,
  TopDeniedArgs,
  UsageRangeArgs,
  UsageSeriesInput,
} from './models/usage.args';
import {
  type DecisionLogEntry,
  type DecisionLogPage,
  DecisionOutcome,
  type DeniedIdentifier,
  type PolicyUsageTotals,
  type UsageSeries,
  UsageResolution,
} from './models/usage.model';
import { firstRetainedSecond, rowCounts, toPoint, toTotals } from './usage.mapping';

/** Points one series may have, per resolution: 15 minutes of seconds, a day of minutes. */
export const MAX_SECOND_POINTS = 900;
export const MAX_MINUTE_POINTS = 1440;
/** Days one `usageTotals` range may span (the roll-ups' default retention, and then some). */
export const MAX_TOTALS_DAYS = 92;
export const MAX_TOP_DENIED = 100;
/** Log entries one `decisionLog` page reads at most (a filter may leave most of them out). */
const MAX_LOG_SCAN = MAX_READ_ROWS;
const LOG_BATCH = 100;
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

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
    const resolution =
      input.resolution ??
      (retained && toSecond - fromSecond <= MAX_SECOND_POINTS
        ? UsageResolution.SECOND
        : UsageResolution.MINUTE);

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

    const retainedFrom = Math.ceil(firstRetainedSecond(Math.floor(now / 1000)) / 60);
    const range = Prisma.sql`"tenantId" = ${args.tenantId}
      AND "minute" BETWEEN ${minuteSql(fromMinute)} AND ${minuteSql(last)}`;
    const [sums, named] = await Promise.all([
      this.prisma.$queryRaw<SumRow[]>`
        SELECT "policyName", sum("allowed") AS "allowed", sum("denied") AS "denied",
          sum("shadowDenied") AS "shadowDenied", sum("candidateDenied") AS "candidateDenied",
          sum("failOpen") AS "failOpen", sum("cost") AS "cost"
        FROM "UsageMinute" WHERE ${range}
        GROUP BY "policyName"`,
      // one scan for the four maps: each row's entries, tagged with the map they come from
      this.prisma.$queryRaw<NamedCountRow[]>`
        SELECT "policyName", entry.map, entry.key AS "name", sum(entry.value::numeric) AS "count"
        FROM "UsageMinute", LATERAL (
          SELECT 'deniedByReason' AS map, key, value FROM jsonb_each("deniedByReason")
          UNION ALL SELECT 'deniedByRule', key, value FROM jsonb_each("deniedByRule")
          UNION ALL SELECT 'shadowDeniedByRule', key, value FROM jsonb_each("shadowDeniedByRule")
          UNION ALL SELECT 'candidateDeniedByRule', key, value FROM jsonb_each("candidateDeniedByRule")
        ) AS entry
        WHERE ${range} AND jsonb_typeof(entry.value) = 'number'
        GROUP BY "policyName", entry.map, entry.key`,
    ]);
    const totalOf = (name: string): Counts => {
      let total = totals.get(name);
      if (!total) totals.set(name, (total = emptyUsage()));
      return total;
    };
    for (const row of sums) {
      addUsage(totalOf(row.policyName), {
        ...emptyUsage(),
        allowed: Number(row.allowed),
        denied: Number(row.denied),
        shadowDenied: Number(row.shadowDenied),
        candidateDenied: Number(row.candidateDenied),
        failOpen: Number(row.failOpen),
        cost: Number(row.cost),
      });
    }
    for (const row of named) {
      if (!NAMED_MAPS.has(row.map)) continue;
      addUsage(totalOf(row.policyName), {
        ...emptyUsage(),
        [row.map]: { [row.name]: Number(row.count) },
      });
    }

    // recent minutes without a row yet: from the seconds (those with one were summed above)
    const recentFrom = Math.max(fromMinute, retainedFrom);
    if (recentFrom <= last) {
      const rolled = new Map<string, Set<number>>();
      const recentRows = await this.prisma.usageMinute.findMany({
        where: {
          tenantId: args.tenantId,
          minute: { gte: new Date(recentFrom * 60_000), lte: new Date(last * 60_000) },
        },
        select: { policyName: true, minute: true },
      });
      for (const row of recentRows) {
        const minutes = rolled.get(row.policyName) ?? new Set<number>();
        rolled.set(row.policyName, minutes.add(row.minute.getTime() / 60_000));
      }
      const recent = await this.recentMinutes(
        args.tenantId,
        [...totals.keys()],
        recentFrom,
        last,
        rolled,
      );
      for (const [name, minutes] of recent) {
        for (const counts of minutes.values()) addUsage(totalOf(name), counts);
      }
    }
    return toPolicyTotals(totals);
  }

  async topDenied(user: AuthUser, args: TopDeniedArgs): Promise<DeniedIdentifier[]> {
    await this.authorize(user, args.tenantId);
    const policy = parseInput(policySchema, args.policy, 'policy');
    const limit = parseInput(limitSchema, args.limit, 'limit');
    assertOrdered(args.from, args.to, 'to');
    const fromMinute = Math.floor(args.from.getTime() / 60_000);
    const toMinute = Math.ceil(args.to.getTime() / 60_000);
    if (toMinute - fromMinute > MAX_MINUTE_POINTS) {
      throw badInput('to', `the range spans at most ${MAX_MINUTE_POINTS} minutes (24 hours)`);
    }
    // each minute's top-K leaves Redis with the seconds: older minutes would add nothing
    const nowSecond = Math.floor(Date.now() / 1000);
    const first = Math.max(fromMinute, Math.floor(firstRetainedSecond(nowSecond) / 60));
    const last = Math.min(toMinute - 1, Math.floor(nowSecond / 60));
    if (last < first) return [];
    return readTopDenied(this.redis.client, this.prefix, args.tenantId, policy, first, last, limit);
  }

  async decisionLog(user: AuthUser, args: DecisionLogArgs): Promise<DecisionLogPage> {
    await this.authorize(user, args.tenantId);
    const policy = parseInput(policySchema, args.policy, 'policy');
    const { first, after } = pageQuery(args);
    if (after !== undefined && !STREAM_ID.test(after)) {
      throw badInput('after', 'is not a cursor of this list (use pageInfo.endCursor)');
    }
    const outcome = args.outcome ?? undefined;
    const entries: DecisionLogEntry[] = [];
    let cursor = after;
    let scanned = 0;
    let hasNextPage = false;
    reading: for (;;) {
      // once the page is full (or the scan bound reached), one more entry says whether more follow
      const full = entries.length === first || scanned === MAX_LOG_SCAN;
      const count = full ? 1 : outcome ? LOG_BATCH : first - entries.length + 1;
      const batch = await readDecisionLog(this.redis.client, this.prefix, args.tenantId, policy, {
        count,
        ...(cursor === undefined ? {} : { before: cursor }),
      });
      for (const entry of batch.entries) {
        if (entries.length === first || scanned === MAX_LOG_SCAN) {
          hasNextPage = true;
          break reading;
        }
        scanned += 1;
        cursor = entry.id;
        if (outcome === undefined || entry.outcome === outcome) {
          entries.push({
            id: entry.id,
            at: new Date(entry.at),
            identifier: entry.identifier,
            outcome: entry.outcome === 'denied' ? DecisionOutcome.DENIED : DecisionOutcome.ALLOWED,
            reason: entry.reason,
            deniedBy: entry.deniedBy ?? null,
            overrideId: entry.overrideId ?? null,
            cost: entry.cost,
          });
        }
      }
      if (batch.next === undefined) break;
    }
    return {
      entries,
      pageInfo: {
        hasNextPage,
        endCursor: cursor === undefined || cursor === after ? null : encodeCursor(cursor),
      },
    };
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

interface SumRow {
  policyName: string;
  allowed: Prisma.Decimal | bigint | number;
  denied: Prisma.Decimal | bigint | number;
  shadowDenied: Prisma.Decimal | bigint | number;
  candidateDenied: Prisma.Decimal | bigint | number;
  failOpen: Prisma.Decimal | bigint | number;
  cost: Prisma.Decimal | bigint | number;
}

/** The maps of counts by name a `UsageMinute` row holds. */
type NamedMap = 'deniedByReason' | 'deniedByRule' | 'shadowDeniedByRule' | 'candidateDeniedByRule';
const NAMED_MAPS = new Set<string>([
  'deniedByReason',
  'deniedByRule',
  'shadowDeniedByRule',
  'candidateDeniedByRule',
] satisfies NamedMap[]);

interface NamedCountRow {
  policyName: string;
  map: NamedMap;
  name: string;
  count: Prisma.Decimal | bigint | number;
}

function minuteSql(minute: number): Prisma.Sql {
  return Prisma.sql`${new Date(minute * 60_000).toISOString()}::timestamptz`;
}

function toPolicyTotals(totals: Map<string, Counts>): PolicyUsageTotals[] {
  return [...totals]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([policy, counts]) => ({ policy, ...toTotals(counts) }));
}

function assertOrdered(from: Date, to: Date, field: string): void {
  if (to.getTime() <= from.getTime()) throw badInput(field, 'must be after from');
}

function badInput(field: string, message: string): AppError {
  return AppError.badUserInput([{ field, message }]);
}
