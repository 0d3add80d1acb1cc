import { Inject, Injectable } from '@nestjs/common';
import type { AnyAlgorithm } from '@sluice/algorithms';
import { type DecisionReason, rateLimitHeaders } from '@sluice/engine';
import { RedisService } from '@sluice/nest-kit';
import { NAME_PATTERN } from '@sluice/policy';
import {
  type DecisionLogEntry as StoredEntry,
  MAX_READ_ROWS,
  readDecisionLog,
} from '@sluice/usage';
import { z } from 'zod';
import type { AuthUser } from '../auth/auth-user';
import { ENV, type Env } from '../env';
import { encodeCursor, pageQuery } from '../graphql/pagination';
import { parseInput } from '../graphql/input';
import type { DecisionLogArgs } from './models/usage.args';
import {
  type DecisionLogEntry,
  type DecisionLogPage,
  DecisionOutcome,
  type HttpHeader,
} from './models/usage.model';
import { assertOrdered, badInput, policySchema, UsageService } from './usage.service';

/** Log entries one `decisionLog` page reads at most (a filter may leave most of them out). */
const MAX_LOG_SCAN = MAX_READ_ROWS;
const LOG_BATCH = 100;
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;
/** The engine's limit on identifiers (bytes of UTF-8; a prefix is no longer). */
const MAX_IDENTIFIER_BYTES = 256;

const identifierSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine(
    (value) => Buffer.byteLength(value) <= MAX_IDENTIFIER_BYTES,
    `must be at most ${MAX_IDENTIFIER_BYTES} bytes`,
  );
const ruleSchema = z.string().regex(NAME_PATTERN, 'must be a rule name');
const REASONS = [
  'allowed',
  'rule',
  'shadow',
  'suspended',
  'fail-open',
  'fail-closed',
  'local',
] as const satisfies readonly DecisionReason[];
const reasonSchema = z.enum(REASONS, { error: `must be one of ${REASONS.join(', ')}` });

interface LogFilter {
  outcome: DecisionOutcome | undefined;
  identifier: string | undefined;
  identifierPrefix: string | undefined;
  rule: string | undefined;
  reason: string | undefined;
  from: number | undefined;
  to: number | undefined;
}

/**
 * The decision log of a policy, newest first, filtered: reads the stream in batches from the
 * cursor (or from `from`, the oldest entry it can hold) and keeps what matches, reading at most
 * `MAX_LOG_SCAN` entries a page.
 */
@Injectable()
export class DecisionLogService {
  private readonly prefix: string;

  constructor(
    private readonly usage: UsageService,
    private readonly redis: RedisService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
  }

  async page(user: AuthUser, args: DecisionLogArgs): Promise<DecisionLogPage> {
    await this.usage.authorize(user, args.tenantId);
    const policy = parseInput(policySchema, args.policy, 'policy');
    const { first, after } = pageQuery(args);
    if (after !== undefined && !STREAM_ID.test(after)) {
      throw badInput('after', 'is not a cursor of this list (use pageInfo.endCursor)');
    }
    const filter = parseFilter(args);
    const filtered = Object.values(filter).some((value) => value !== undefined);
    const entries: DecisionLogEntry[] = [];
    let cursor = after;
    let scanned = 0;
    let hasNextPage = false;
    reading: for (;;) {
      // once the page is full (or the scan bound reached), one more entry says whether more follow
      const full = entries.length === first || scanned === MAX_LOG_SCAN;
      const count = full ? 1 : filtered ? LOG_BATCH : first - entries.length + 1;
      const batch = await readDecisionLog(this.redis.client, this.prefix, args.tenantId, policy, {
        count,
        ...(cursor === undefined ? {} : { before: cursor }),
        // an entry is written after its decision: none older than `from` can match
        ...(filter.from === undefined ? {} : { notBefore: filter.from }),
      });
      for (const entry of batch.entries) {
        if (entries.length === first || scanned === MAX_LOG_SCAN) {
          hasNextPage = true;
          break reading;
        }
        scanned += 1;
        cursor = entry.id;
        if (matches(entry, filter)) entries.push(toEntry(entry));
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
}

function parseFilter(args: DecisionLogArgs): LogFilter {
  const optional = <T>(schema: z.ZodType<T>, value: unknown, field: string): T | undefined =>
    value === undefined || value === null ? undefined : parseInput(schema, value, field);
  if (args.from && args.to) assertOrdered(args.from, args.to, 'to');
  return {
    outcome: args.outcome ?? undefined,
    identifier: optional(identifierSchema, args.identifier, 'identifier'),
    identifierPrefix: optional(identifierSchema, args.identifierPrefix, 'identifierPrefix'),
    rule: optional(ruleSchema, args.rule, 'rule'),
    reason: optional(reasonSchema, args.reason, 'reason'),
    from: args.from?.getTime(),
    to: args.to?.getTime(),
  };
}

function matches(entry: StoredEntry, filter: LogFilter): boolean {
  return (
    (filter.outcome === undefined || entry.outcome === filter.outcome) &&
    (filter.identifier === undefined || entry.identifier === filter.identifier) &&
    (filter.identifierPrefix === undefined ||
      entry.identifier.startsWith(filter.identifierPrefix)) &&
    (filter.rule === undefined || entry.deniedBy === filter.rule) &&
    (filter.reason === undefined || entry.reason === filter.reason) &&
    (filter.from === undefined || entry.at >= filter.from) &&
    (filter.to === undefined || entry.at < filter.to)
  );
}

function toEntry(entry: StoredEntry): DecisionLogEntry {
  return {
    id: entry.id,
    at: new Date(entry.at),
    identifier: entry.identifier,
    outcome: entry.outcome === 'denied' ? DecisionOutcome.DENIED : DecisionOutcome.ALLOWED,
    reason: entry.reason,
    deniedBy: entry.deniedBy ?? null,
    overrideId: entry.overrideId ?? null,
    cost: entry.cost,
    shadowDenied: entry.shadowDenied,
    candidatesDeniedBy: entry.candidatesDeniedBy,
    retryAfterMs: entry.answer?.retryAfterMs ?? null,
    rules: entry.rules.map((rule) => ({
      name: rule.name,
      algorithm: rule.algorithm,
      allowed: rule.allowed ?? null,
      limit: rule.limit,
      remaining: rule.remaining,
      resetAt: new Date(rule.resetAt),
      retryAfterMs: rule.retryAfterMs ?? null,
      quota: rule.quota ?? null,
      windowMs: rule.windowMs,
    })),
    headers: headersOf(entry),
  };
}

/** What the data plane sent with this answer, rebuilt by the data plane's own function. */
function headersOf(entry: StoredEntry): HttpHeader[] {
  const { answer } = entry;
  if (answer === undefined) return [];
  const headers = rateLimitHeaders({
    allowed: entry.outcome === 'allowed',
    policy: '',
    identifier: entry.identifier,
    limit: answer.limit,
    remaining: answer.remaining,
    resetAt: answer.resetAt,
    retryAfterMs: answer.retryAfterMs,
    reason: 'rule',
    at: entry.at,
    rules: entry.rules.map((rule) => ({
      name: rule.name,
      // stored by the engine from its own rules: one of its algorithms
      algorithm: rule.algorithm as AnyAlgorithm,
      allowed: rule.allowed ?? true,
      limit: rule.limit,
      remaining: rule.remaining,
      resetAt: rule.resetAt,
      retryAfterMs: rule.retryAfterMs ?? 0,
      quota: rule.quota ?? rule.limit,
      windowMs: rule.windowMs,
    })),
  });
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}
