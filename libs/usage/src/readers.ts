import type { ChainableCommander, Cluster, Redis } from 'ioredis';
import { UsageInputError } from './errors';
import {
  activeMember,
  assertPolicyName,
  assertPrefix,
  assertTenantId,
  ID_PATTERN,
  FIELD_ALLOWED,
  FIELD_CANDIDATE_BY_PREFIX,
  FIELD_CANDIDATE_DENIED,
  FIELD_COST,
  FIELD_DENIED_BY_PREFIX,
  FIELD_DENIED_PREFIX,
  FIELD_FAIL_OPEN,
  FIELD_SHADOW_BY_PREFIX,
  FIELD_SHADOW_DENIED,
  keyLastUsedKey,
  NAME_PATTERN,
  REASON_PATTERN,
  topCostKey,
  topDeniedKey,
  usageActiveKey,
  usageSecondKey,
} from './keys';

// Every reader touches one tenant's keys only, so all its commands go to one cluster slot; the
// active-set readers are the exception (those keys hold every tenant, one slot per minute).

/** Seconds one `readSeconds` call may span (an hour; retention is 15 minutes by default). */
export const MAX_READ_SECONDS = 3600;
/** Minutes one `readTopDenied` call may span (a day). */
export const MAX_READ_MINUTES = 1440;
/** Rows one `readTopDenied` or `readDecisionLog` call may return. */
export const MAX_READ_ROWS = 1000;

/** Counts over some span (a second, a minute, a range). */
export interface UsageTotals {
  allowed: number;
  /** All denials of the second; `deniedByReason` splits them. */
  denied: number;
  deniedByReason: Record<string, number>;
  /** Denials by the rule that denied (reasons `rule` and `local`; concurrency rules included). */
  deniedByRule: Record<string, number>;
  /** Allowed only because the policy is in shadow mode. */
  shadowDenied: number;
  /** Shadow denials by the rule that would have denied. */
  shadowDeniedByRule: Record<string, number>;
  /** Would have been denied by the policy's candidate rules. */
  candidateDenied: number;
  /** Candidate denials by candidate rule (a decision two candidates refuse counts for both). */
  candidateDeniedByRule: Record<string, number>;
  /** Allowed because Redis failed and the policy fails open (part of `allowed`). */
  failOpen: number;
  /** Sum of the cost of allowed decisions (settles move it, so a span's sum may be negative). */
  cost: number;
}

export interface UsageSecond extends UsageTotals {
  /** Epoch second. */
  second: number;
}

export interface UsageMinute extends UsageTotals {
  /** Epoch minute. */
  minute: number;
}

/** All zeros: the totals of a span without usage. */
export function emptyUsage(): UsageTotals {
  return {
    allowed: 0,
    denied: 0,
    deniedByReason: {},
    deniedByRule: {},
    shadowDenied: 0,
    shadowDeniedByRule: {},
    candidateDenied: 0,
    candidateDeniedByRule: {},
    failOpen: 0,
    cost: 0,
  };
}

/** Adds `from` into `into` (reasons and rules merged) and returns `into`. */
export function addUsage(into: UsageTotals, from: UsageTotals): UsageTotals {
  into.allowed += from.allowed;
  into.denied += from.denied;
  into.shadowDenied += from.shadowDenied;
  into.candidateDenied += from.candidateDenied;
  into.failOpen += from.failOpen;
  into.cost += from.cost;
  addCounts(into.deniedByReason, from.deniedByReason);
  addCounts(into.deniedByRule, from.deniedByRule);
  addCounts(into.shadowDeniedByRule, from.shadowDeniedByRule);
  addCounts(into.candidateDeniedByRule, from.candidateDeniedByRule);
  return into;
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [name, count] of Object.entries(from)) {
    // own properties only: a name such as `constructor` must not read Object.prototype's
    const current = Object.hasOwn(into, name) ? into[name] : 0;
    into[name] = (current ?? 0) + count;
  }
}

/**
 * One row per second from `fromSecond` to `toSecond` inclusive, oldest first. Seconds without
 * usage (or past retention) are filled with zeros, so a chart needs no gap handling.
 */
export async function readSeconds(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  fromSecond: number,
  toSecond: number,
): Promise<UsageSecond[]> {
  assertScope(prefix, tenantId, policy);
  assertRange('second', fromSecond, toSecond, MAX_READ_SECONDS);
  const pipeline = redis.pipeline();
  for (let second = fromSecond; second <= toSecond; second += 1) {
    pipeline.hgetall(usageSecondKey(prefix, tenantId, policy, second));
  }
  const replies = await execAll(pipeline);
  return replies.map((reply, index) =>
    usageSecond(fromSecond + index, reply as Record<string, string>),
  );
}

/**
 * One row per minute from `fromMinute` to `toMinute` inclusive (epoch minutes), each the sum of
 * its seconds as `readSeconds` reads them: zeros where nothing was recorded or is kept no more.
 */
export async function readMinutes(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  fromMinute: number,
  toMinute: number,
): Promise<UsageMinute[]> {
  assertRange('minute', fromMinute, toMinute, MAX_READ_SECONDS / 60);
  const seconds = await readSeconds(
    redis,
    prefix,
    tenantId,
    policy,
    fromMinute * 60,
    toMinute * 60 + 59,
  );
  const minutes: UsageMinute[] = [];
  for (let index = 0; index < seconds.length; index += 60) {
    const minute: UsageMinute = { minute: fromMinute + index / 60, ...emptyUsage() };
    for (const row of seconds.slice(index, index + 60)) addUsage(minute, row);
    minutes.push(minute);
  }
  return minutes;
}

/** Per-name counts: the field prefix, the map it fills, and the names it accepts. */
const NAMED_FIELDS = [
  [FIELD_DENIED_PREFIX, 'deniedByReason', REASON_PATTERN],
  [FIELD_DENIED_BY_PREFIX, 'deniedByRule', NAME_PATTERN],
  [FIELD_SHADOW_BY_PREFIX, 'shadowDeniedByRule', NAME_PATTERN],
  [FIELD_CANDIDATE_BY_PREFIX, 'candidateDeniedByRule', NAME_PATTERN],
] as const;

function usageSecond(second: number, hash: Record<string, string>): UsageSecond {
  const row: UsageSecond = {
    second,
    ...emptyUsage(),
    allowed: count(hash[FIELD_ALLOWED]),
    shadowDenied: count(hash[FIELD_SHADOW_DENIED]),
    candidateDenied: count(hash[FIELD_CANDIDATE_DENIED]),
    failOpen: count(hash[FIELD_FAIL_OPEN]),
    cost: count(hash[FIELD_COST]),
  };
  for (const [field, value] of Object.entries(hash)) {
    for (const [prefix, map, pattern] of NAMED_FIELDS) {
      if (!field.startsWith(prefix)) continue;
      const name = field.slice(prefix.length);
      // only well-formed names become object keys (never `__proto__` and the like)
      if (!pattern.test(name)) break;
      row[map][name] = count(value);
      if (map === 'deniedByReason') row.denied += count(value);
      break;
    }
  }
  return row;
}

export interface DeniedIdentifier {
  identifier: string;
  denied: number;
}

/**
 * The most denied identifiers over the minutes `fromMinute`..`toMinute` (epoch minutes,
 * inclusive), most denied first, ties by identifier. Each minute keeps only its top K, so an
 * identifier's figure is exact as long as it stayed in each minute's top K.
 */
export async function readTopDenied(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  fromMinute: number,
  toMinute: number,
  limit: number,
): Promise<DeniedIdentifier[]> {
  const range = { fromMinute, toMinute, limit };
  const rows = await readTop(topDeniedKey, redis, prefix, tenantId, policy, range);
  return rows.map(({ identifier, score }) => ({ identifier, denied: score }));
}

export interface CostlyIdentifier {
  identifier: string;
  /** The cost its allowed checks charged over the range (a reservation counts its estimate). */
  cost: number;
}

/**
 * The heavy hitters by cost over the minutes `fromMinute`..`toMinute` (epoch minutes,
 * inclusive), costliest first, ties by identifier. Approximate as the minutes are: each keeps
 * its top K, and a flush keeps the costliest of many one-off identifiers.
 */
export async function readTopCost(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  fromMinute: number,
  toMinute: number,
  limit: number,
): Promise<CostlyIdentifier[]> {
  const range = { fromMinute, toMinute, limit };
  const rows = await readTop(topCostKey, redis, prefix, tenantId, policy, range);
  return rows.map(({ identifier, score }) => ({ identifier, cost: score }));
}

/**
 * A range of per-minute sorted sets summed (ZUNION): the `limit` highest scores, ties by
 * identifier.
 */
async function readTop(
  keyOf: (prefix: string, tenantId: string, policy: string, minute: number) => string,
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  { fromMinute, toMinute, limit }: { fromMinute: number; toMinute: number; limit: number },
): Promise<{ identifier: string; score: number }[]> {
  assertScope(prefix, tenantId, policy);
  assertRange('minute', fromMinute, toMinute, MAX_READ_MINUTES);
  assertCount('limit', limit);
  const keys: string[] = [];
  for (let minute = fromMinute; minute <= toMinute; minute += 1) {
    keys.push(keyOf(prefix, tenantId, policy, minute));
  }
  const flat = await redis.zunion(keys.length, ...keys, 'WITHSCORES');
  const rows: { identifier: string; score: number }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    rows.push({ identifier: flat[i] ?? '', score: count(flat[i + 1]) });
  }
  rows.sort((a, b) => b.score - a.score || compareStrings(a.identifier, b.identifier));
  return rows.slice(0, limit);
}

export interface KeyLastUsed {
  keyId: string;
  /** ms epoch */
  lastUsedAt: number;
}

/** Every API key of the tenant that was used, most recently used first. */
export async function readKeyLastUsed(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
): Promise<KeyLastUsed[]> {
  assertPrefix(prefix);
  assertTenantId(tenantId);
  const hash = await redis.hgetall(keyLastUsedKey(prefix, tenantId));
  return Object.entries(hash)
    .map(([keyId, at]) => ({ keyId, lastUsedAt: count(at) }))
    .sort((a, b) => b.lastUsedAt - a.lastUsedAt || compareStrings(a.keyId, b.keyId));
}

export interface ActivePolicy {
  tenantId: string;
  /** Policy name. */
  policy: string;
}

export interface ActiveMinute {
  /** Epoch minute. */
  minute: number;
  /** Every (tenant, policy) that recorded usage in the minute, sorted. */
  active: ActivePolicy[];
  /**
   * Epoch second at which the minute's first second leaves Redis (its retention ends): from then
   * on, the minute's seconds no longer add up to its usage. Undefined when nothing is recorded.
   */
  secondsExpireAt: number | undefined;
}

/**
 * Which (tenant, policy) pairs recorded usage in `minute` (an epoch minute), from the minute's
 * active set: what a roll-up folds, without scanning Redis.
 */
export async function readActivePolicies(
  redis: Redis | Cluster,
  prefix: string,
  minute: number,
): Promise<ActiveMinute> {
  assertPrefix(prefix);
  assertRange('minute', minute, minute, 1);
  const key = usageActiveKey(prefix, minute);
  const [members, expireTime] = await execAll(redis.pipeline().smembers(key).expiretime(key));
  const active: ActivePolicy[] = [];
  for (const member of members as string[]) {
    const [tenantId = '', policy = ''] = member.split(':');
    // written by the recorder from validated events; anything else is not ours to fold
    if (ID_PATTERN.test(tenantId) && NAME_PATTERN.test(policy)) active.push({ tenantId, policy });
  }
  active.sort(
    (a, b) => compareStrings(a.tenantId, b.tenantId) || compareStrings(a.policy, b.policy),
  );
  // the set expires at the minute's end + retention, its first second 59 seconds earlier
  const expiresAt = Number(expireTime);
  return { minute, active, secondsExpireAt: expiresAt > 0 ? expiresAt - 59 : undefined };
}

/**
 * The minutes from `fromMinute` to `toMinute` (inclusive) in which each of the tenant's
 * `policies` recorded usage: policy → its active epoch minutes, ascending. One SMISMEMBER per
 * minute (each minute's set has its own slot).
 */
export async function readActiveMinutes(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policies: readonly string[],
  fromMinute: number,
  toMinute: number,
): Promise<Map<string, number[]>> {
  assertPrefix(prefix);
  assertTenantId(tenantId);
  for (const policy of policies) assertPolicyName(policy);
  assertRange('minute', fromMinute, toMinute, MAX_READ_MINUTES);
  const result = new Map(policies.map((policy) => [policy, [] as number[]]));
  if (policies.length === 0) return result;
  const members = policies.map((policy) => activeMember(tenantId, policy));
  const minutes = Array.from({ length: toMinute - fromMinute + 1 }, (_, i) => fromMinute + i);
  const flags = await Promise.all(
    minutes.map((minute) => redis.smismember(usageActiveKey(prefix, minute), ...members)),
  );
  minutes.forEach((minute, i) => {
    policies.forEach((policy, j) => {
      if (flags[i]?.[j] === 1) result.get(policy)?.push(minute);
    });
  });
  return result;
}

export function assertScope(prefix: string, tenantId: string, policy: string): void {
  assertPrefix(prefix);
  assertTenantId(tenantId);
  assertPolicyName(policy);
}

export function assertRange(
  unit: 'second' | 'minute',
  from: number,
  to: number,
  maxSpan: number,
): void {
  if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(to) || to < from) {
    throw new UsageInputError(`from/to ${unit}: expected integers with 0 <= from <= to`);
  }
  if (to - from + 1 > maxSpan) {
    throw new UsageInputError(`from/to ${unit}: at most ${maxSpan} ${unit}s per read`);
  }
}

export function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_READ_ROWS) {
    throw new UsageInputError(`${name}: expected an integer from 1 to ${MAX_READ_ROWS}`);
  }
}

/** Redis integers arrive as strings; anything unparsable counts as 0. */
export function count(value: string | undefined): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A pipeline's replies, or the first error among them. */
async function execAll(pipeline: ChainableCommander): Promise<unknown[]> {
  const results = (await pipeline.exec()) ?? [];
  return results.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
