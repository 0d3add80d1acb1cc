import { RETRY_NEVER } from '@sluice/algorithms';
import { serializeItem, serializeList } from 'structured-headers';
import { PROBLEM_BASE, type ProblemDetails } from './errors';
import type { CheckResult, RuleResult } from './types';

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** RFC 8941 §3.3.1: an Integer has at most 15 digits. */
const MAX_SF_INTEGER = 999_999_999_999_999;
/** Rule names are few (a policy's names), but not trusted to be: the memo is bounded. */
const MAX_STRING_ITEMS = 10_000;
const stringItems = new Map<string, string>();

/** A string as an RFC 8941 String (`"burst"`), serialized by the library once per string. */
function stringItem(value: string): string {
  let item = stringItems.get(value);
  if (item === undefined) {
    if (stringItems.size >= MAX_STRING_ITEMS) stringItems.clear();
    item = serializeItem(value);
    stringItems.set(value, item);
  }
  return item;
}

const isSfInteger = (value: number) => Number.isInteger(value) && Math.abs(value) <= MAX_SF_INTEGER;

type Param = readonly [key: string, value: number | string];

/**
 * A draft-11 list field: one `"<rule>";<key>=<value>…` item per rule. Strings (names, units) are
 * the library's serialization (memoized: the costly part, quoting and escaping), integers their
 * decimal form, which is all RFC 8941 makes of an Integer; anything else (a fractional quota) is
 * left to the library, which serializes or refuses it.
 */
function listField(rules: readonly RuleResult[], params: (rule: RuleResult) => Param[]): string {
  let field = '';
  for (const rule of rules) {
    let item = stringItem(rule.name);
    for (const [key, value] of params(rule)) {
      if (typeof value === 'string') item += `;${key}=${stringItem(value)}`;
      else if (isSfInteger(value)) item += `;${key}=${value}`;
      else return serializeList(rules.map((member) => [member.name, new Map(params(member))]));
    }
    field += field === '' ? item : `, ${item}`;
  }
  return field;
}

/**
 * `q` per `w` seconds; a concurrency rule's quota is requests in flight, over no window: the
 * draft's quota unit `qu="concurrent-requests"` instead of `w`.
 */
const policyParams = (rule: RuleResult): Param[] =>
  rule.algorithm === 'concurrency'
    ? [
        ['q', rule.quota],
        ['qu', 'concurrent-requests'],
      ]
    : [
        ['q', rule.quota],
        ['w', seconds(rule.windowMs)],
      ];

/**
 * The rate-limit headers of an answer: `X-RateLimit-Limit`, `-Remaining` (never below 0) and
 * `-Reset` (epoch seconds, rounded up) from the headline rule; the IETF draft-11 fields
 * `RateLimit-Policy` and `RateLimit` with one item per live rule (RFC 8941 lists; for a
 * concurrency rule `r` is the free slots and `t` when a slot frees by itself at the latest); and
 * `Retry-After` (seconds, rounded up) when denied and a retry can succeed. Without rule figures
 * (suspended, fail-open, fail-closed) only `Retry-After` may be present.
 */
export function rateLimitHeaders(result: CheckResult): Record<string, string> {
  const headers: Record<string, string> = {};
  if (result.rules.length > 0) {
    headers['X-RateLimit-Limit'] = String(result.limit);
    headers['X-RateLimit-Remaining'] = String(Math.max(0, result.remaining));
    headers['X-RateLimit-Reset'] = String(seconds(result.resetAt));
    headers['RateLimit-Policy'] = listField(result.rules, policyParams);
    headers['RateLimit'] = listField(result.rules, (rule) => [
      ['r', Math.max(0, rule.remaining)],
      ['t', Math.max(0, seconds(rule.resetAt - result.at))],
    ]);
  }
  if (!result.allowed && result.retryAfterMs > 0) {
    headers['Retry-After'] = String(seconds(result.retryAfterMs));
  }
  return headers;
}

const UNITS: [number, string][] = [
  [1000, 'second'],
  [60_000, 'minute'],
  [3_600_000, 'hour'],
  [86_400_000, 'day'],
];

/** "per minute", "per calendar day", else "per N seconds". */
function perWindow(rule: RuleResult): string {
  if (rule.calendarUnit) return `per calendar ${rule.calendarUnit}`;
  const unit = UNITS.find(([ms]) => ms === rule.windowMs);
  if (unit) return `per ${unit[1]}`;
  const count = Number((rule.windowMs / 1000).toFixed(3));
  return `per ${count} ${count === 1 ? 'second' : 'seconds'}`;
}

function retryText(retryAfterMs: number): string {
  if (retryAfterMs === RETRY_NEVER) {
    return 'This request costs more than the limit allows, so retrying cannot succeed.';
  }
  const wait = seconds(retryAfterMs);
  return `Retry after ${wait} ${wait === 1 ? 'second' : 'seconds'}.`;
}

/** "Rate limit of 100 requests per minute exceeded.", "Limit of 5 requests in flight reached." */
function limitText(rule: RuleResult | undefined): string {
  if (!rule) return 'Rate limit exceeded.';
  const requests = `${rule.quota} ${rule.quota === 1 ? 'request' : 'requests'}`;
  // the wait is until the earliest lease expires; a request in flight that ends frees one sooner
  if (rule.algorithm === 'concurrency') return `Limit of ${requests} in flight reached.`;
  return `Rate limit of ${requests} ${perWindow(rule)} exceeded.`;
}

/**
 * The RFC 9457 body for a denied result: `rule`/`local` → 429 `rate-limited`, worded from the
 * denying rule ("Rate limit of 100 requests per minute exceeded. Retry after 30 seconds.", "Limit
 * of 5 requests in flight reached. Retry after 60 seconds.");
 * `fail-closed` → 503 `temporary-reduced-capacity`; `suspended` → 403 `tenant-suspended` (a
 * retry cannot help, so not a 429). Throws for an allowed result.
 */
export function problemForDenial(result: CheckResult, instance: string): ProblemDetails {
  if (result.allowed) throw new TypeError('problemForDenial: the result is allowed');
  switch (result.reason) {
    case 'fail-closed':
      return {
        type: `${PROBLEM_BASE}temporary-reduced-capacity`,
        title: 'Service Unavailable',
        status: 503,
        detail: `Rate limits cannot be checked right now, so requests are refused. ${retryText(result.retryAfterMs)}`,
        instance,
      };
    case 'suspended':
      return {
        type: `${PROBLEM_BASE}tenant-suspended`,
        title: 'Forbidden',
        status: 403,
        detail: 'The account this API key belongs to is suspended.',
        instance,
      };
    default: {
      const rule = result.rules.find((candidate) => candidate.name === result.deniedBy);
      const limit = limitText(rule);
      return {
        type: `${PROBLEM_BASE}rate-limited`,
        title: 'Too Many Requests',
        status: 429,
        detail: `${limit} ${retryText(result.retryAfterMs)}`,
        instance,
        'violated-policies': result.rules.filter((r) => !r.allowed).map((r) => r.name),
      };
    }
  }
}
