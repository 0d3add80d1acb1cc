import { Inject, Injectable } from '@nestjs/common';
import { Prisma, type PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import {
  type ActivePolicy,
  readActivePolicies,
  readMinutes,
  type UsageMinute,
} from '@sluice/usage';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { RollupMetrics } from './rollup.metrics';

/**
 * A minute is folded again only while its first second stays in Redis at least this long (s): a
 * run reads for a few seconds at most, and a fold that read after some seconds expired would
 * overwrite a complete total with a smaller one.
 */
export const EXPIRY_MARGIN_SECONDS = 30;
/** (tenant, policy) pairs read at once and written in one INSERT. */
const BATCH_SIZE = 100;
/** Rows one DELETE removes at most, so retention never holds a long lock. */
const DELETE_BATCH_SIZE = 10_000;
const DAY_MS = 86_400_000;

export interface RollupRun {
  /** Epoch minutes with usage among those the run looked at. */
  minutes: number;
  /** (tenant, policy, minute) totals computed from the seconds. */
  folded: number;
  /** Rows inserted or changed (a row equal to its new totals is not rewritten). */
  written: number;
  /** Totals only inserted where no row existed, as their minute's seconds are expiring. */
  expiring: number;
}

interface FoldedMinute extends UsageMinute {
  tenantId: string;
  policy: string;
}

/**
 * Folds the data plane's per-second counters into `UsageMinute` rows. Each run recomputes every
 * complete minute (ended `WORKER_USAGE_ROLLUP_GRACE_SECONDS` ago) within the lookback from its
 * seconds and upserts the absolute totals, never an increment: running twice, or two workers at
 * once, counts nothing twice, and seconds flushed late are picked up by the next run. The
 * minute's active set (libs/usage) names the pairs to fold, so no run scans Redis.
 */
@Injectable()
export class RollupService {
  private readonly prefix: string;
  private readonly graceSeconds: number;
  private readonly lookbackSeconds: number;
  private readonly retentionDays: number;

  constructor(
    @Inject(ENV) env: Env,
    private readonly redis: RedisService,
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly metrics: RollupMetrics,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
    this.graceSeconds = env.WORKER_USAGE_ROLLUP_GRACE_SECONDS;
    this.lookbackSeconds = env.WORKER_USAGE_ROLLUP_LOOKBACK_SECONDS;
    this.retentionDays = env.WORKER_USAGE_RETENTION_DAYS;
  }

  /** One roll-up as of `nowMs` (default: the Redis clock, which also expires the seconds). */
  async rollUp(nowMs?: number): Promise<RollupRun> {
    const now = Math.floor((nowMs ?? (await this.redisNow())) / 1000);
    const lastComplete = Math.floor((now - this.graceSeconds) / 60) - 1;
    const run: RollupRun = { minutes: 0, folded: 0, written: 0, expiring: 0 };
    const first = Math.floor((now - this.lookbackSeconds) / 60);
    for (let minute = first; minute <= lastComplete; minute += 1) {
      const { active, secondsExpireAt } = await readActivePolicies(
        this.redis.client,
        this.prefix,
        minute,
      );
      if (active.length > 0) {
        run.minutes += 1;
        const intact =
          secondsExpireAt !== undefined && now + EXPIRY_MARGIN_SECONDS < secondsExpireAt;
        for (let start = 0; start < active.length; start += BATCH_SIZE) {
          const rows = await this.fold(active.slice(start, start + BATCH_SIZE), minute);
          run.folded += rows.length;
          if (intact) run.written += await this.upsert(rows);
          else {
            run.expiring += rows.length;
            run.written += await this.insertMissing(rows);
          }
        }
      }
    }
    this.metrics.rolledUp(run);
    return run;
  }

  /** Deletes rows older than `WORKER_USAGE_RETENTION_DAYS`; returns how many. */
  async deleteExpired(nowMs = Date.now()): Promise<number> {
    const cutoff = new Date(nowMs - this.retentionDays * DAY_MS).toISOString();
    let deleted = 0;
    for (;;) {
      const batch = await this.prisma.$executeRaw`
        DELETE FROM "UsageMinute" WHERE ctid IN (
          SELECT ctid FROM "UsageMinute" WHERE "minute" < ${cutoff}::timestamptz LIMIT ${DELETE_BATCH_SIZE}
        )`;
      deleted += batch;
      if (batch < DELETE_BATCH_SIZE) break;
    }
    this.metrics.deleted(deleted);
    return deleted;
  }

  private async fold(pairs: readonly ActivePolicy[], minute: number): Promise<FoldedMinute[]> {
    return Promise.all(
      pairs.map(async ({ tenantId, policy }) => {
        const [totals] = await readMinutes(
          this.redis.client,
          this.prefix,
          tenantId,
          policy,
          minute,
          minute,
        );
        if (!totals) throw new Error(`no totals read for minute ${minute}`);
        return { ...totals, tenantId, policy };
      }),
    );
  }

  /** Absolute totals over whatever is stored; unchanged rows are left alone (no dead tuples). */
  private upsert(rows: readonly FoldedMinute[]): Promise<number> {
    if (rows.length === 0) return Promise.resolve(0);
    return this.prisma.$executeRaw`
      INSERT INTO "UsageMinute" ${COLUMNS} VALUES ${Prisma.join(rows.map(values))}
      ON CONFLICT ("tenantId", "policyName", "minute") DO UPDATE SET ${UPDATES}
      WHERE ${STORED} IS DISTINCT FROM ${EXCLUDED}`;
  }

  /** Where the seconds may be partly gone: a partial total beats none, but never replaces one. */
  private insertMissing(rows: readonly FoldedMinute[]): Promise<number> {
    if (rows.length === 0) return Promise.resolve(0);
    return this.prisma.$executeRaw`
      INSERT INTO "UsageMinute" ${COLUMNS} VALUES ${Prisma.join(rows.map(values))}
      ON CONFLICT ("tenantId", "policyName", "minute") DO NOTHING`;
  }

  private async redisNow(): Promise<number> {
    const [seconds, micros] = await this.redis.client.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }
}

/** The counts of a row, each `UsageMinute` column with the `UsageTotals` field it stores. */
const COUNT_COLUMNS = [
  'allowed',
  'denied',
  'deniedByReason',
  'deniedByRule',
  'shadowDenied',
  'shadowDeniedByRule',
  'candidateDenied',
  'candidateDeniedByRule',
  'failOpen',
  'cost',
] as const;

const quoted = (column: string) => `"${column}"`;
const COLUMNS = Prisma.raw(
  `("tenantId", "policyName", "minute", ${COUNT_COLUMNS.map(quoted).join(', ')})`,
);
const UPDATES = Prisma.raw(
  COUNT_COLUMNS.map((column) => `${quoted(column)} = EXCLUDED.${quoted(column)}`).join(', '),
);
const STORED = Prisma.raw(
  `(${COUNT_COLUMNS.map((column) => `"UsageMinute".${quoted(column)}`).join(', ')})`,
);
const EXCLUDED = Prisma.raw(
  `(${COUNT_COLUMNS.map((column) => `EXCLUDED.${quoted(column)}`).join(', ')})`,
);

function values(row: FoldedMinute): Prisma.Sql {
  const minute = new Date(row.minute * 60_000).toISOString();
  const counts = COUNT_COLUMNS.map((column) => {
    const value = row[column];
    return typeof value === 'number'
      ? Prisma.sql`${BigInt(value)}`
      : Prisma.sql`${JSON.stringify(value)}::jsonb`;
  });
  return Prisma.sql`(${row.tenantId}, ${row.policy}, ${minute}::timestamptz, ${Prisma.join(counts)})`;
}
