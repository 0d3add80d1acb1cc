import type { Cluster, Redis } from 'ioredis';
import { UsageInputError } from './errors';
import type { AnswerFigures, RuleFigures } from './figures';
import { decisionLogKey, NAME_PATTERN } from './keys';
import { assertCount, assertScope, count } from './readers';

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
  /** Allowed in shadow mode, denied had the policy been enforced. */
  shadowDenied: boolean;
  /** The candidate rules that would have denied. */
  candidatesDeniedBy: string[];
  /** The answer's headline figures; absent in entries written before they were logged. */
  answer?: AnswerFigures;
  /** Each live rule's figures after the check (none: decided without Redis, or an old entry). */
  rules: RuleFigures[];
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
  options: {
    count: number;
    before?: string;
    /** ms epoch: no entry written before it (an entry is written after its decision). */
    notBefore?: number;
  },
): Promise<DecisionLogPage> {
  assertScope(prefix, tenantId, policy);
  assertCount('count', options.count);
  const { before } = options;
  if (before !== undefined && (typeof before !== 'string' || !STREAM_ID.test(before))) {
    throw new UsageInputError('before: expected a cursor such as 1700000000000-0');
  }
  const { notBefore } = options;
  if (notBefore !== undefined && (!Number.isSafeInteger(notBefore) || notBefore < 0)) {
    throw new UsageInputError('notBefore: expected a ms epoch');
  }
  const raw = await redis.xrevrange(
    decisionLogKey(prefix, tenantId, policy),
    before === undefined ? '+' : `(${before}`,
    notBefore === undefined ? '-' : `${notBefore}-0`,
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
    shadowDenied: values.get('shadow') === '1',
    candidatesDeniedBy: (values.get('candidates') ?? '')
      .split(',')
      .filter((rule) => NAME_PATTERN.test(rule)),
    ...loggedFigures(values.get('answer'), values.get('rules')),
  };
}

/** The entry's JSON figures, as far as they are well-formed (they are ours, but stored). */
function loggedFigures(
  answerJson: string | undefined,
  rulesJson: string | undefined,
): Pick<DecisionLogEntry, 'answer' | 'rules'> {
  const answer = parseJson(answerJson);
  const rules = parseJson(rulesJson);
  return {
    ...(isAnswer(answer) ? { answer } : {}),
    rules: Array.isArray(rules) ? rules.filter(isRule) : [],
  };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

function isAnswer(value: unknown): value is AnswerFigures {
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Record<string, unknown>;
  return ['limit', 'remaining', 'resetAt', 'retryAfterMs'].every((key) => isNumber(answer[key]));
}

function isRule(value: unknown): value is RuleFigures {
  if (typeof value !== 'object' || value === null) return false;
  const rule = value as Record<string, unknown>;
  return (
    typeof rule['name'] === 'string' &&
    typeof rule['algorithm'] === 'string' &&
    ['limit', 'remaining', 'resetAt', 'windowMs'].every((key) => isNumber(rule[key]))
  );
}
