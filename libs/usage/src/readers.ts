import type { ChainableCommander, Cluster, Redis } from 'ioredis';
import { UsageInputError } from './errors';
import {
  assertPolicyName,
  assertPrefix,
  assertTenantId,
  decisionLogKey,
  FIELD_ALLOWED,
  FIELD_CANDIDATE_DENIED,
  FIELD_COST,
  FIELD_DENIED_PREFIX,
  FIELD_SHADOW_DENIED,
  keyLastUsedKey,
  REASON_PATTERN,
  topDeniedKey,
  usageSecondKey,
} from './keys';

// Every reader touches one tenant's keys only, so all its commands go to one cluster slot.

/** Seconds one `readSeconds` call may span (an hour; retention is 15 minutes by default). */
export const MAX_READ_SECONDS = 3600;
/** Minutes one `readTopDenied` call may span (a day). */
export const MAX_READ_MINUTES = 1440;
/** Rows one `readTopDenied` or `readDecisionLog` call may return. */
export const MAX_READ_ROWS = 1000;

export interface UsageSecond {
  /** Epoch second. */
  second: number;
  allowed: number;
  /** All denials of the second; `deniedByReason` splits them. */
  denied: number;
  deniedByReason: Record<string, number>;
  /** Allowed only because the policy is in shadow mode. */
  shadowDenied: number;
  /** Would have been denied by the policy's candidate rules. */
  candidateDenied: number;
  /** Sum of the cost of allowed decisions. */
  cost: number;
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

function usageSecond(second: number, hash: Record<string, string>): UsageSecond {
  const row: UsageSecond = {
    second,
    allowed: count(hash[FIELD_ALLOWED]),
    denied: 0,
    deniedByReason: {},
    shadowDenied: count(hash[FIELD_SHADOW_DENIED]),
    candidateDenied: count(hash[FIELD_CANDIDATE_DENIED]),
    cost: count(hash[FIELD_COST]),
  };
  for (const [field, value] of Object.entries(hash)) {
    if (!field.startsWith(FIELD_DENIED_PREFIX)) continue;
    const reason = field.slice(FIELD_DENIED_PREFIX.length);
    // only well-formed reasons become object keys (never `__proto__` and the like)
    if (!REASON_PATTERN.test(reason)) continue;
    row.deniedByReason[reason] = count(value);
    row.denied += count(value);
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
  assertScope(prefix, tenantId, policy);
  assertRange('minute', fromMinute, toMinute, MAX_READ_MINUTES);
  assertCount('limit', limit);
  const keys: string[] = [];
  for (let minute = fromMinute; minute <= toMinute; minute += 1) {
    keys.push(topDeniedKey(prefix, tenantId, policy, minute));
  }
  const flat = await redis.zunion(keys.length, ...keys, 'WITHSCORES');
  const rows: DeniedIdentifier[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    rows.push({ identifier: flat[i] ?? '', denied: count(flat[i + 1]) });
  }
  rows.sort((a, b) => b.denied - a.denied || compareStrings(a.identifier, b.identifier));
  return rows.slice(0, limit);
}

export interface DecisionLogEntry {
  /** Stream entry id; pass it as `before` to read the page after it. */
  id: string;
  /** Decision time, ms epoch. */
  at: number;
  identifier: string;
  outcome: 'allowed' | 'denied';
  reason: string;
  deniedBy?: string;
  overrideId?: string;
  cost: number;
}

export interface DecisionLogPage {
  /** Newest first. */
  entries: DecisionLogEntry[];
  /** Cursor for the next (older) page: present when the page is full. */
  next?: string;
}

const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

/** The decision log, newest first; `before` (a previous page's `next`) is exclusive. */
export async function readDecisionLog(
  redis: Redis | Cluster,
  prefix: string,
  tenantId: string,
  policy: string,
  options: { count: number; before?: string },
): Promise<DecisionLogPage> {
  assertScope(prefix, tenantId, policy);
  assertCount('count', options.count);
  const { before } = options;
  if (before !== undefined && (typeof before !== 'string' || !STREAM_ID.test(before))) {
    throw new UsageInputError('before: expected a cursor such as 1700000000000-0');
  }
  const raw = await redis.xrevrange(
    decisionLogKey(prefix, tenantId, policy),
    before === undefined ? '+' : `(${before}`,
    '-',
    'COUNT',
    options.count,
  );
  const entries = raw.map(([id, fields]) => logEntry(id, fields));
  const last = entries[entries.length - 1];
  return last !== undefined && entries.length === options.count
    ? { entries, next: last.id }
    : { entries };
}

function logEntry(id: string, fields: string[]): DecisionLogEntry {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i] ?? '', fields[i + 1] ?? '');
  const deniedBy = values.get('deniedBy');
  const overrideId = values.get('overrideId');
  return {
    id,
    at: count(values.get('time')),
    identifier: values.get('identifier') ?? '',
    outcome: values.get('outcome') === 'denied' ? 'denied' : 'allowed',
    reason: values.get('reason') ?? '',
    ...(deniedBy === undefined ? {} : { deniedBy }),
    ...(overrideId === undefined ? {} : { overrideId }),
    cost: count(values.get('cost')),
  };
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

function assertScope(prefix: string, tenantId: string, policy: string): void {
  assertPrefix(prefix);
  assertTenantId(tenantId);
  assertPolicyName(policy);
}

function assertRange(unit: 'second' | 'minute', from: number, to: number, maxSpan: number): void {
  if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(to) || to < from) {
    throw new UsageInputError(`from/to ${unit}: expected integers with 0 <= from <= to`);
  }
  if (to - from + 1 > maxSpan) {
    throw new UsageInputError(`from/to ${unit}: at most ${maxSpan} ${unit}s per read`);
  }
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_READ_ROWS) {
    throw new UsageInputError(`${name}: expected an integer from 1 to ${MAX_READ_ROWS}`);
  }
}

/** Redis integers arrive as strings; anything unparsable counts as 0. */
function count(value: string | undefined): number {
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
