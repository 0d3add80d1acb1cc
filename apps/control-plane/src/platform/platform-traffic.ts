import { Prisma, type PrismaClient } from '@sluice/db';
import { minuteSql } from '../usage/usage-rollups';
import { UsageResolution } from '../usage/models/usage.model';
import { PlatformRange, type PlatformTraffic, type TenantTraffic } from './models/platform.model';

/** Minutes the range spans and minutes per bucket. */
const RANGES = {
  [PlatformRange.HOUR]: { minutes: 60, bucket: 1 },
  [PlatformRange.DAY]: { minutes: 1440, bucket: 60 },
  [PlatformRange.WEEK]: { minutes: 10_080, bucket: 60 },
} as const;

type Sum = Prisma.Decimal | bigint | number | null;

interface TenantRow {
  tenantId: string;
  name: string | null;
  allowed: Sum;
  denied: Sum;
}

/**
 * Checks across every tenant over `range` ending with the running minute, summed in PostgreSQL
 * from the `UsageMinute` rows (the `minute` index bounds each scan to the range): per bucket,
 * in total, and the top tenants by checks and by denials.
 */
export async function platformTraffic(
  prisma: PrismaClient,
  range: PlatformRange,
  top: number,
  nowMs: number,
): Promise<PlatformTraffic> {
  const { minutes, bucket } = RANGES[range];
  const last = Math.floor(nowMs / 60_000);
  const first = Math.floor((last - minutes + 1) / bucket) * bucket;
  const where = Prisma.sql`u."minute" BETWEEN ${minuteSql(first)} AND ${minuteSql(last)}`;
  const byTenant = (order: Prisma.Sql, having: Prisma.Sql) => prisma.$queryRaw<TenantRow[]>`
    SELECT u."tenantId", t."name", sum(u."allowed") AS "allowed", sum(u."denied") AS "denied"
    FROM "UsageMinute" u LEFT JOIN "Tenant" t ON t."id" = u."tenantId"
    WHERE ${where}
    GROUP BY u."tenantId", t."name" ${having}
    ORDER BY ${order} DESC, u."tenantId" LIMIT ${top}`;
  const [buckets, summary, topByChecks, topByDenied] = await Promise.all([
    prisma.$queryRaw<{ bucket: Sum; allowed: Sum; denied: Sum }[]>`
      SELECT floor(extract(epoch FROM u."minute") / 60 / ${bucket}) * ${bucket} AS "bucket",
        sum(u."allowed") AS "allowed", sum(u."denied") AS "denied"
      FROM "UsageMinute" u WHERE ${where} GROUP BY 1`,
    prisma.$queryRaw<{ tenants: Sum; latest: Date | null }[]>`
      SELECT count(DISTINCT u."tenantId") AS "tenants", max(u."minute") AS "latest"
      FROM "UsageMinute" u WHERE ${where}`,
    byTenant(Prisma.sql`sum(u."allowed") + sum(u."denied")`, Prisma.empty),
    byTenant(Prisma.sql`sum(u."denied")`, Prisma.sql`HAVING sum(u."denied") > 0`),
  ]);
  const sums = new Map(buckets.map((row) => [Number(row.bucket), row]));
  const points = [];
  let allowed = 0;
  let denied = 0;
  for (let start = first; start <= last; start += bucket) {
    const row = sums.get(start);
    const point = {
      at: new Date(start * 60_000),
      allowed: Number(row?.allowed ?? 0),
      denied: Number(row?.denied ?? 0),
    };
    allowed += point.allowed;
    denied += point.denied;
    points.push(point);
  }
  const latest = summary[0]?.latest ?? null;
  return {
    range,
    resolution: bucket === 1 ? UsageResolution.MINUTE : UsageResolution.HOUR,
    from: new Date(first * 60_000),
    to: new Date((last + 1) * 60_000),
    rolledUpTo: latest && new Date(latest.getTime() + 60_000),
    points,
    allowed,
    denied,
    activeTenants: Number(summary[0]?.tenants ?? 0),
    topByChecks: topByChecks.map(toTenantTraffic),
    topByDenied: topByDenied.map(toTenantTraffic),
  };
}

function toTenantTraffic(row: TenantRow): TenantTraffic {
  return {
    tenantId: row.tenantId,
    name: row.name,
    allowed: Number(row.allowed ?? 0),
    denied: Number(row.denied ?? 0),
  };
}
