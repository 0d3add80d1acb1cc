import { Prisma, type PrismaClient } from '@sluice/db';
import { addUsage, emptyUsage, type UsageTotals as Counts } from '@sluice/usage';

/** The maps of counts by name a `UsageMinute` row holds. */
type NamedMap = 'deniedByReason' | 'deniedByRule' | 'shadowDeniedByRule' | 'candidateDeniedByRule';
const NAMED_MAPS = new Set<string>([
  'deniedByReason',
  'deniedByRule',
  'shadowDeniedByRule',
  'candidateDeniedByRule',
] satisfies NamedMap[]);

type Sum = Prisma.Decimal | bigint | number;

interface SumRow {
  policyName: string;
  bucket: Sum;
  allowed: Sum;
  denied: Sum;
  shadowDenied: Sum;
  candidateDenied: Sum;
  failOpen: Sum;
  cost: Sum;
}

interface NamedCountRow {
  policyName: string;
  bucket: Sum;
  map: NamedMap;
  name: string;
  count: Sum;
}

/** Policy name → bucket (its first epoch minute) → counts. */
export type BucketedCounts = Map<string, Map<number, Counts>>;

/**
 * The sums of a tenant's `UsageMinute` rows from `fromMinute` to `last` (epoch minutes,
 * included), summed in PostgreSQL per policy and per bucket of `bucketMinutes` (aligned on the
 * epoch, so hours and days in UTC; undefined: one bucket, 0, for the whole range), optionally
 * for one policy. Two scans: the plain counts, then every entry of the four maps.
 */
export async function sumRollups(
  prisma: PrismaClient,
  tenantId: string,
  fromMinute: number,
  last: number,
  options: { policy?: string; bucketMinutes?: number } = {},
): Promise<BucketedCounts> {
  const { policy, bucketMinutes } = options;
  const where = Prisma.sql`"tenantId" = ${tenantId}
    AND "minute" BETWEEN ${minuteSql(fromMinute)} AND ${minuteSql(last)}
    ${policy === undefined ? Prisma.empty : Prisma.sql`AND "policyName" = ${policy}`}`;
  const bucket =
    bucketMinutes === undefined
      ? Prisma.sql`0`
      : Prisma.sql`floor(extract(epoch FROM "minute") / 60 / ${bucketMinutes}) * ${bucketMinutes}`;
  const [sums, named] = await Promise.all([
    prisma.$queryRaw<SumRow[]>`
      SELECT "policyName", ${bucket} AS "bucket", sum("allowed") AS "allowed",
        sum("denied") AS "denied", sum("shadowDenied") AS "shadowDenied",
        sum("candidateDenied") AS "candidateDenied", sum("failOpen") AS "failOpen",
        sum("cost") AS "cost"
      FROM "UsageMinute" WHERE ${where}
      GROUP BY 1, 2`,
    // one scan for the four maps: each row's entries, tagged with the map they come from
    prisma.$queryRaw<NamedCountRow[]>`
      SELECT "policyName", ${bucket} AS "bucket", entry.map, entry.key AS "name",
        sum(entry.value::numeric) AS "count"
      FROM "UsageMinute", LATERAL (
        SELECT 'deniedByReason' AS map, key, value FROM jsonb_each("deniedByReason")
        UNION ALL SELECT 'deniedByRule', key, value FROM jsonb_each("deniedByRule")
        UNION ALL SELECT 'shadowDeniedByRule', key, value FROM jsonb_each("shadowDeniedByRule")
        UNION ALL SELECT 'candidateDeniedByRule', key, value FROM jsonb_each("candidateDeniedByRule")
      ) AS entry
      WHERE ${where} AND jsonb_typeof(entry.value) = 'number'
      GROUP BY 1, 2, 3, 4`,
  ]);
  const result: BucketedCounts = new Map();
  const countsOf = (row: { policyName: string; bucket: Sum }): Counts => {
    const buckets = result.get(row.policyName) ?? new Map<number, Counts>();
    result.set(row.policyName, buckets);
    const key = Number(row.bucket);
    let counts = buckets.get(key);
    if (!counts) buckets.set(key, (counts = emptyUsage()));
    return counts;
  };
  for (const row of sums) {
    addUsage(countsOf(row), {
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
    addUsage(countsOf(row), { ...emptyUsage(), [row.map]: { [row.name]: Number(row.count) } });
  }
  return result;
}

export function minuteSql(minute: number): Prisma.Sql {
  return Prisma.sql`${new Date(minute * 60_000).toISOString()}::timestamptz`;
}
